package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The artifacts a library user gets from {@code ./mvnw install}, as install-file put them. */
class LibraryArtifactsIT {
  private static final Pattern MODULE_NAME =
      Pattern.compile("[a-z][a-z0-9]*(\\.[a-z][a-z0-9]*)*");

  @Test
  void installedModules_eachHasJarPomSourcesAndJavadoc() throws IOException {
    for (String m : Build.LIBRARY_MODULES) {
      assertThat(Build.installed(m, ".pom")).as(m).isRegularFile();
      assertThat(entries(Build.installed(m, ".jar"))).as(m + " classes")
          .anyMatch(e -> e.endsWith(".class"));
      assertThat(entries(Build.installed(m, "-sources.jar"))).as(m + " sources")
          .anyMatch(e -> e.endsWith(".java"));
      assertThat(entries(Build.installed(m, "-javadoc.jar"))).as(m + " javadoc")
          .contains("index.html");
    }
    assertThat(Build.installed("tributary-bom", ".pom")).isRegularFile();
    assertThat(Build.installed("tributary-parent", ".pom")).isRegularFile();
  }

  @Test
  void libraryJars_declareAutomaticModuleNames() throws IOException {
    for (String m : Build.LIBRARY_MODULES) {
      try (JarFile jar = new JarFile(Build.installed(m, ".jar").toFile())) {
        String name = jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
        // tributary-flower-training: io.tributary.flower.training (a dash is no name character).
        assertThat(name).as(m).isEqualTo(
            "io.tributary." + m.substring("tributary-".length()).replace('-', '.'));
        assertThat(MODULE_NAME.matcher(name).matches()).as(name).isTrue();
      }
    }
  }

  @Test
  void bom_pinsEveryLibraryModuleAtTheProjectVersion() throws Exception {
    Document bom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(Build.projectRoot().resolve("tributary-bom/pom.xml").toFile());
    Element project = bom.getDocumentElement();
    assertThat(child(project, "version")).isEqualTo(Build.version());
    assertThat(project.getElementsByTagName("parent").getLength()).as("no parent").isZero();
    NodeList deps = project.getElementsByTagName("dependency");
    List<String> pinned = new ArrayList<>();
    for (int i = 0; i < deps.getLength(); i++) {
      Element d = (Element) deps.item(i);
      if (!child(d, "groupId").equals("io.tributary")) {
        // A library tributary-spark was tested with: SparkPinsTest holds its version.
        continue;
      }
      assertThat(child(d, "version")).isEqualTo(Build.version());
      pinned.add(child(d, "artifactId"));
    }
    // The library modules, then the optional engines that no module depends on.
    List<String> expected = new ArrayList<>(Build.LIBRARY_MODULES);
    expected.addAll(Build.ENGINE_MODULES);
    assertThat(pinned).containsExactlyElementsOf(expected);
    // Every module of the reactor is a library module, an engine, or one of the four that are not.
    String parent = Files.readString(Build.projectRoot().resolve("pom.xml"));
    List<String> modules = new ArrayList<>();
    Matcher mm = Pattern.compile("<module>([^<]+)</module>").matcher(parent);
    while (mm.find()) {
      modules.add(mm.group(1));
    }
    modules.removeAll(List.of("tributary-bom", "tributary-cli", "tributary-benchmarks",
        "tributary-it"));
    modules.removeAll(Build.ENGINE_MODULES);
    assertThat(modules).containsExactlyInAnyOrderElementsOf(Build.LIBRARY_MODULES);
  }

  @Test
  void libraryClasspath_hasSlf4jApiAndNoLoggingBinding() throws IOException {
    List<Path> classpath = Build.libraryClasspath();
    assertThat(classpath).anyMatch(p -> p.getFileName().toString().startsWith("slf4j-api-"));
    for (Path jar : classpath) {
      String file = jar.getFileName().toString();
      assertThat(file).as("a logging backend on the library class path")
          .doesNotStartWith("slf4j-simple").doesNotStartWith("logback")
          .doesNotStartWith("log4j-slf4j").doesNotStartWith("slf4j-nop")
          .doesNotStartWith("slf4j-reload4j").doesNotStartWith("slf4j-jdk14");
      assertThat(entries(jar)).as(file)
          .doesNotContain("META-INF/services/org.slf4j.spi.SLF4JServiceProvider")
          .doesNotContain("org/slf4j/impl/StaticLoggerBinder.class");
    }
  }

  @Test
  void cliModuleJar_isThePlainJarNotTheShadedOne() throws IOException {
    Path target = Build.projectRoot().resolve("tributary-cli/target");
    List<String> main = entries(target.resolve("tributary-cli-" + Build.version() + ".jar"));
    assertThat(main).anyMatch(e -> e.startsWith("io/tributary/cli/"))
        .noneMatch(e -> e.startsWith("io/tributary/core/") || e.startsWith("picocli/"));
    // The shaded jar is the CLI's own: ./tributary runs it, nothing installs it.
    assertThat(entries(target.resolve("tributary.jar")))
        .anyMatch(e -> e.startsWith("io/tributary/core/"));
  }

  private static List<String> entries(Path jar) throws IOException {
    assertThat(jar).isRegularFile();
    try (JarFile f = new JarFile(jar.toFile())) {
      return f.stream().map(JarEntry::getName).toList();
    }
  }

  private static String child(Element parent, String tag) {
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element e && e.getTagName().equals(tag)) {
        return e.getTextContent().trim();
      }
    }
    throw new AssertionError(parent.getTagName() + " has no <" + tag + ">");
  }
}
