package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Builds {@code examples/spark-simulation}, a project that depends on the BOM and tributary-spark
 * alone, as a user's would be built: offline, from this build's local repository, which holds
 * only what Tributary's own build resolved. It resolves (so Maven never needs the versions Spark
 * asks for and tributary-spark overrides), and its class path and its {@code Main} at run time
 * hold the Hadoop and protobuf-java that tributary-spark was built and tested with.
 */
class SparkExampleProjectIT {
  private static Path project;
  private static List<String> classpath;

  @BeforeAll
  static void buildExample() throws Exception {
    project = Build.workDir().resolve("spark-simulation");
    Build.deleteRecursively(project);
    Build.copyRecursively(Build.projectRoot().resolve("examples/spark-simulation"), project);
    Path cpFile = project.resolve("target/classpath.txt");
    String mvn = Build.mavenHome().resolve("bin/mvn").toString();
    Build.Result r = Build.run(project, List.of(mvn, "-B", "-q", "-o",
        "-Dmaven.repo.local=" + Build.exampleRepo(),
        "-Dmaven.repo.local.tail=" + Build.mavenRepo(),
        "-Dtributary.version=" + Build.version(),
        "-Dmdep.outputFile=" + cpFile,
        "package", "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath"), 600);
    assertThat(r.status()).as("offline mvn package of the example:\n%s\n%s", r.stdout(),
        r.stderr()).isZero();
    classpath = List.of((project.resolve("target/classes") + File.pathSeparator
        + Files.readString(cpFile).strip()).split(File.pathSeparator));
  }

  @Test
  void exampleClasspath_hadoopAndProtobuf_theVersionsTributarySparkWasTestedWith()
      throws Exception {
    String hadoop = property("tributary-spark/pom.xml", "hadoop.version");
    String protobuf = property("pom.xml", "protobuf.version");

    assertThat(versionsOf("hadoop-client-api")).containsExactly(hadoop);
    assertThat(versionsOf("hadoop-client-runtime")).containsExactly(hadoop);
    assertThat(versionsOf("protobuf-java")).containsExactly(protobuf);
    assertThat(classpath).contains(Build.installed("tributary-spark", ".jar").toString());
  }

  @Test
  void exampleMain_plainJvm_findsTheSparkEngineAndRunsWithThoseVersions() throws Exception {
    Build.Result r = Build.run(project, List.of(Build.java(), "-cp",
        String.join(File.pathSeparator, classpath), "com.example.spark.Main"), 300);

    assertThat(r.status()).as("stdout:\n%s\nstderr:\n%s", r.stdout(), r.stderr()).isZero();
    assertThat(r.stdout()).contains("--partitions 2")
        .contains("engine provider: io.tributary.spark.SparkEngineProvider runs local[2]: true")
        .contains("hadoop: " + property("tributary-spark/pom.xml", "hadoop.version") + "\n")
        .contains("protobuf-java: " + property("pom.xml", "protobuf.version") + "\n");
  }

  /** The versions of {@code artifactId} on the example's class path. */
  private static List<String> versionsOf(String artifactId) {
    Pattern jar = Pattern.compile(".*/" + Pattern.quote(artifactId) + "/([^/]+)/"
        + Pattern.quote(artifactId) + "-\\1\\.jar");
    return classpath.stream().map(p -> p.replace(File.separatorChar, '/')).map(jar::matcher)
        .filter(Matcher::matches).map(m -> m.group(1)).toList();
  }

  /** A property of one of the build's POMs. */
  private static String property(String pom, String name) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Element root = f.newDocumentBuilder().parse(Build.projectRoot().resolve(pom).toFile())
        .getDocumentElement();
    for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals("properties")) {
        for (Node p = e.getFirstChild(); p != null; p = p.getNextSibling()) {
          if (p instanceof Element v && v.getTagName().equals(name)) {
            return v.getTextContent().strip();
          }
        }
      }
    }
    throw new IllegalStateException(pom + " has no property " + name);
  }
}
