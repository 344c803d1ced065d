package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The versions tributary-spark was tested with reach a project that depends on it: such a
 * project's Maven does not read tributary-spark's {@code <dependencyManagement>} (nor the
 * parent's), but takes the nearest declaration of a dependency, so every version tributary-spark
 * pins must also be one of its own {@code <dependencies>} (depth 2 from the project, nearer than
 * Spark's own at depth 3). Hadoop 3.4.2, which Spark 4.1.1 brings, kills every executor on JDK 24
 * and later.
 */
class SparkPinsTest {
  @Test
  void sparkPom_everyManagedPin_isAlsoADirectDependency() throws Exception {
    Element project = pom("tributary-spark");
    List<String> managed = artifacts(child(project, "dependencyManagement"));
    List<String> direct = artifacts(project);

    assertThat(managed).contains("org.apache.hadoop:hadoop-client-api",
        "org.apache.hadoop:hadoop-client-runtime");
    assertThat(direct).containsAll(managed);
  }

  @Test
  void sparkPom_protobufOfTheParent_isADirectDependency() throws Exception {
    List<String> direct = artifacts(pom("tributary-spark"));
    List<String> parentManaged = artifacts(child(pom(""), "dependencyManagement"));

    assertThat(parentManaged).contains("com.google.protobuf:protobuf-java");
    assertThat(direct).contains("com.google.protobuf:protobuf-java");
  }

  @Test
  void bom_pinsOfThirdPartyLibraries_equalTributarySparksAndTheParents() throws Exception {
    Element bom = pom("tributary-bom");
    String hadoop = property(pom("tributary-spark"), "hadoop.version");
    String protobuf = property(pom(""), "protobuf.version");
    List<String> pins = new ArrayList<>();
    Element deps = child(child(bom, "dependencyManagement"), "dependencies");
    for (Node n = deps.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element d && !child(d, "groupId").getTextContent().equals("io.tributary")) {
        pins.add(child(d, "artifactId").getTextContent() + ":"
            + child(d, "version").getTextContent());
      }
    }

    assertThat(pins).containsExactly("hadoop-client-api:" + hadoop,
        "hadoop-client-runtime:" + hadoop, "protobuf-java:" + protobuf);
  }

  private static String property(Element project, String name) {
    return child(child(project, "properties"), name).getTextContent().strip();
  }

  private static Element pom(String module) throws Exception {
    String given = System.getProperty("tributary.projectRoot");
    Path root = given != null && !given.isBlank() ? Path.of(given) : Path.of("..");
    Path file = module.isEmpty() ? root.resolve("pom.xml") : root.resolve(module)
        .resolve("pom.xml");
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document d = f.newDocumentBuilder().parse(file.toFile());
    return d.getDocumentElement();
  }

  /** The {@code group:artifact} of each dependency of {@code parent}'s {@code <dependencies>}. */
  private static List<String> artifacts(Element parent) {
    List<String> out = new ArrayList<>();
    Element deps = child(parent, "dependencies");
    if (deps == null) {
      return out;
    }
    NodeList list = deps.getChildNodes();
    for (int i = 0; i < list.getLength(); i++) {
      if (list.item(i) instanceof Element d && d.getTagName().equals("dependency")) {
        out.add(child(d, "groupId").getTextContent().strip() + ":"
            + child(d, "artifactId").getTextContent().strip());
      }
    }
    return out;
  }

  private static Element child(Element parent, String name) {
    if (parent == null) {
      return null;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }
}
