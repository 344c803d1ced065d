package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No module's main code reaches into another module's {@code internal} packages
 * (docs/architecture.md, "Modules"). The descriptors already stop it for the named modules; this
 * holds it for the ones on the class path too (tributary-spark, tributary-cli,
 * tributary-benchmarks) and for every module whatever its descriptor says. Tests may reach
 * internals (flower-secagg's and the CLI's tests read flower's protos) and are not scanned.
 *
 * <p>A package belongs to the module whose {@code src/main/java} holds it or, for generated code
 * (the {@code .internal.proto} packages), its nearest enclosing package.
 */
class InternalPackagesTest {
  private static final String PREFIX = "tributary-";
  /** A qualified package name: lower-case segments after {@code io.tributary}. */
  private static final Pattern PACKAGE = Pattern.compile(
      "\\bio\\.tributary(?:\\.[a-z_][a-z0-9_]*)+");

  @Test
  void mainCode_ofEveryModule_referencesNoOtherModulesInternalPackage() throws IOException {
    Map<String, String> owners = owners();
    List<String> found = new ArrayList<>();
    for (String module : modules()) {
      Path src = mainSources(module);
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
          String code = Files.readString(f, StandardCharsets.UTF_8);
          for (String v : violations(module, code, owners)) {
            found.add(module + "/" + src.relativize(f) + ": " + v);
          }
        }
      }
    }
    assertThat(owners).as("the packages of the modules' main code").isNotEmpty();
    assertThat(found).as("references to another module's internal package").isEmpty();
  }

  @Test
  void violations_anImportOfAnotherModulesInternalPackage_isFoundButNotOnesOwnOrAComment()
      throws IOException {
    String source = """
        package io.tributary.spark;

        import io.tributary.simulation.internal.FederatedRun;
        import io.tributary.flower.internal.proto.ServerMessage;
        // io.tributary.runtime.executor.internal.pass is named in a comment
        /* and io.tributary.core.proto.internal in another */
        class Worker {
          String s = "io.tributary.graph.internal";
          Object o = io.tributary.runtime.executor.internal.pass.PassPlan.class;
        }
        """;

    List<String> found = violations("tributary-spark", source, owners());

    assertThat(found).containsExactly(
        "io.tributary.simulation.internal (tributary-simulation's)",
        "io.tributary.flower.internal.proto (tributary-flower's)",
        "io.tributary.runtime.executor.internal.pass (tributary-runtime's)");
    assertThat(violations("tributary-simulation", source, owners()))
        .doesNotContain("io.tributary.simulation.internal (tributary-simulation's)");
  }

  /**
   * The other modules' internal packages that {@code code} of {@code module} names outside
   * comments and string literals, in order.
   */
  private static List<String> violations(String module, String code,
      Map<String, String> owners) {
    List<String> out = new ArrayList<>();
    Matcher m = PACKAGE.matcher(codeOnly(code));
    while (m.find()) {
      String pkg = m.group();
      if (!List.of(pkg.split("\\.")).contains("internal")) {
        continue;
      }
      String owner = owner(pkg, owners).orElse("no module");
      if (!owner.equals(module)) {
        out.add(pkg + " (" + owner + "'s)");
      }
    }
    return out;
  }

  /** The module of the nearest package that encloses {@code pkg} (or is it). */
  private static Optional<String> owner(String pkg, Map<String, String> owners) {
    String p = pkg;
    while (!owners.containsKey(p) && p.contains(".")) {
      p = p.substring(0, p.lastIndexOf('.'));
    }
    return Optional.ofNullable(owners.get(p));
  }

  /**
   * {@code source} with its comments and string, text-block and character literals blanked
   * out, so that only names the compiler reads remain.
   */
  private static String codeOnly(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        int end = source.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        out.append(' ');
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        while (end > 0 && source.charAt(end - 1) == '\\') {
          end = source.indexOf("\"\"\"", end + 1);
        }
        i = end < 0 ? n : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** Every package of the modules' main sources, with its module. */
  private static Map<String, String> owners() throws IOException {
    Map<String, String> owners = new TreeMap<>();
    for (String module : modules()) {
      Path src = mainSources(module);
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")
            && !p.getFileName().toString().equals("module-info.java")).toList()) {
          String pkg = src.relativize(f.getParent()).toString().replace(
              f.getFileSystem().getSeparator(), ".");
          String before = owners.putIfAbsent(pkg, module);
          assertThat(before == null || before.equals(module))
              .as("package " + pkg + " in both " + before + " and " + module).isTrue();
        }
      }
    }
    return owners;
  }

  /** The modules with main code, by directory name. */
  private static Set<String> modules() throws IOException {
    try (Stream<Path> dirs = Files.list(root())) {
      Set<String> out = new TreeSet<>();
      dirs.filter(d -> d.getFileName().toString().startsWith(PREFIX))
          .filter(d -> Files.isDirectory(d.resolve("src/main/java")))
          .forEach(d -> out.add(d.getFileName().toString()));
      return out;
    }
  }

  private static Path mainSources(String module) {
    return root().resolve(module).resolve("src/main/java");
  }

  /** The project's root: surefire's {@code tributary.projectRoot}, else the module's parent. */
  private static Path root() {
    String root = System.getProperty("tributary.projectRoot");
    return root != null && !root.isBlank() ? Path.of(root) : Path.of("..");
  }
}
