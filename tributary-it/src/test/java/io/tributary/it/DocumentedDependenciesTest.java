package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module boundaries as docs/architecture.md states them ("Dependencies point one way"), held
 * against every module's {@code pom.xml}.
 *
 * <p>A module's dependencies here are the {@code tributary-*} artifacts of its own
 * {@code <dependencies>} (not its {@code <dependencyManagement>}) in compile scope (written or
 * implied). An {@code <optional>} one counts like any other: the module's code is compiled
 * against it, which is what the list states; that users do not get it is the doc's prose to tell.
 * Test-scope and runtime-scope dependencies do not count.
 *
 * <p>A bullet of the list names one or more modules in backticks, a colon, then the modules they
 * depend on by their short names ({@code tensor}, {@code flower-training}), separated by commas
 * or "and", up to the first full stop, semicolon or parenthesis; {@code none} and
 * {@code every library module} are the two words that stand for lists.
 */
class DocumentedDependenciesTest {
  private static final String PREFIX = "tributary-";
  private static final String LIST_OPENING = "Dependencies point one way.";
  private static final Pattern BULLET_MODULES = Pattern.compile("`(tributary-[a-z-]+)`");
  private static final Pattern SHORT_NAME = Pattern.compile("[a-z]+(-[a-z]+)*");

  @Test
  void architectureDoc_eachModulesDependencies_matchItsPom() throws Exception {
    Map<String, Set<String>> documented = documented();
    Map<String, Set<String>> declared = declared();
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : declared.entrySet()) {
      String module = e.getKey();
      Set<String> doc = documented.get(module);
      if (doc == null) {
        differences.add(module + ": not in docs/architecture.md's list, its pom.xml declares "
            + shortNames(e.getValue()));
        continue;
      }
      Set<String> missing = new TreeSet<>(e.getValue());
      missing.removeAll(doc);
      Set<String> extra = new TreeSet<>(doc);
      extra.removeAll(e.getValue());
      if (!missing.isEmpty()) {
        differences.add(module + ": its pom.xml declares " + shortNames(missing)
            + ", which docs/architecture.md does not list");
      }
      if (!extra.isEmpty()) {
        differences.add(module + ": docs/architecture.md lists " + shortNames(extra)
            + ", which its pom.xml does not declare in compile scope");
      }
    }
    for (String module : documented.keySet()) {
      if (!declared.containsKey(module)) {
        differences.add(module + ": in docs/architecture.md's list, but no such module has a "
            + "pom.xml");
      }
    }
    assertThat(differences).as("docs/architecture.md against the poms").isEmpty();
  }

  @Test
  void architectureDoc_everyDependencyOnTheList_isAModule() throws Exception {
    Set<String> modules = declared().keySet();
    for (Map.Entry<String, Set<String>> e : documented().entrySet()) {
      assertThat(modules).as(e.getKey() + "'s documented dependencies")
          .containsAll(e.getValue());
    }
  }

  /** Each documented module's dependencies, as full artifact ids. */
  private static Map<String, Set<String>> documented() throws IOException {
    String doc = Files.readString(root().resolve("docs/architecture.md"), StandardCharsets.UTF_8);
    int at = doc.indexOf(LIST_OPENING);
    assertThat(at).as("docs/architecture.md has the paragraph \"" + LIST_OPENING + "\"")
        .isNotNegative();
    List<String> bullets = bullets(doc.substring(at));
    assertThat(bullets).as("the bullet list after \"" + LIST_OPENING + "\"").isNotEmpty();
    Map<String, Set<String>> out = new TreeMap<>();
    for (String bullet : bullets) {
      int colon = bullet.indexOf("`: ");
      assertThat(colon).as("a bullet names its modules, then a colon: " + bullet)
          .isPositive();
      List<String> modules = new ArrayList<>();
      Matcher m = BULLET_MODULES.matcher(bullet.substring(0, colon + 1));
      while (m.find()) {
        modules.add(m.group(1));
      }
      assertThat(modules).as("the modules of: " + bullet).isNotEmpty();
      Set<String> deps = dependencies(bullet.substring(colon + 3), bullet);
      for (String module : modules) {
        assertThat(out.put(module, deps)).as(module + " is listed once").isNull();
      }
    }
    return out;
  }

  /** The list's bullets, each with its wrapped lines joined. */
  private static List<String> bullets(String text) {
    List<String> bullets = new ArrayList<>();
    StringBuilder current = null;
    boolean started = false;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith("- ")) {
        if (current != null) {
          bullets.add(current.toString());
        }
        current = new StringBuilder(line.substring(2).strip());
        started = true;
      } else if (started && line.startsWith("  ") && !line.isBlank()) {
        current.append(' ').append(line.strip());
      } else if (started) {
        break;
      }
    }
    if (current != null) {
      bullets.add(current.toString());
    }
    return bullets;
  }

  /** The dependencies a bullet's text after the colon states. */
  private static Set<String> dependencies(String text, String bullet) {
    int end = text.length();
    for (String stop : List.of(". ", ";", "(")) {
      int i = text.indexOf(stop);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    String list = text.substring(0, end).strip();
    if (list.endsWith(".")) {
      list = list.substring(0, list.length() - 1);
    }
    Set<String> out = new TreeSet<>();
    if (list.equals("none")) {
      return out;
    }
    if (list.equals("every library module")) {
      out.addAll(Build.LIBRARY_MODULES);
      return out;
    }
    for (String word : list.split(",|\\band\\b")) {
      String name = word.strip();
      if (name.isEmpty()) {
        continue;
      }
      assertThat(SHORT_NAME.matcher(name).matches())
          .as("\"" + name + "\" is a module's short name, in: " + bullet).isTrue();
      out.add(PREFIX + name);
    }
    return out;
  }

  /** Each module's compile-scope dependencies on other modules, from its pom.xml. */
  private static Map<String, Set<String>> declared() throws Exception {
    Map<String, Set<String>> out = new TreeMap<>();
    List<Path> poms;
    try (Stream<Path> dirs = Files.list(root())) {
      poms = dirs.filter(d -> d.getFileName().toString().startsWith(PREFIX))
          .map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).sorted().toList();
    }
    assertThat(poms).as("the modules' poms").isNotEmpty();
    for (Path pom : poms) {
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(pom.toFile());
      Element project = doc.getDocumentElement();
      String artifact = child(project, "artifactId");
      if (artifact.equals("tributary-bom")) {
        continue; // it pins versions and depends on nothing
      }
      Set<String> deps = new TreeSet<>();
      Element dependencies = childElement(project, "dependencies");
      if (dependencies != null) {
        NodeList list = dependencies.getChildNodes();
        for (int i = 0; i < list.getLength(); i++) {
          if (list.item(i) instanceof Element d && d.getTagName().equals("dependency")) {
            String id = child(d, "artifactId");
            String scope = childElement(d, "scope") == null ? "compile" : child(d, "scope");
            if (id.startsWith(PREFIX) && scope.equals("compile")) {
              deps.add(id);
            }
          }
        }
      }
      out.put(artifact, deps);
    }
    return out;
  }

  private static String shortNames(Set<String> artifacts) {
    return artifacts.stream().map(a -> a.substring(PREFIX.length())).toList().toString();
  }

  private static Element childElement(Element parent, String tag) {
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e;
      }
    }
    return null;
  }

  private static String child(Element parent, String tag) {
    Element e = childElement(parent, tag);
    if (e == null) {
      throw new AssertionError(parent.getTagName() + " has no <" + tag + ">");
    }
    return e.getTextContent().trim();
  }

  /** The project's root: surefire's {@code tributary.projectRoot}, else the module's parent. */
  private static Path root() {
    String root = System.getProperty("tributary.projectRoot");
    return root != null && !root.isBlank() ? Path.of(root) : Path.of("..");
  }
}
