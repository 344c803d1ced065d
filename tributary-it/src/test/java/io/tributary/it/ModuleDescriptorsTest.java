package io.tributary.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every library module's {@code module-info}: it exports exactly its packages that are not
 * {@code internal} (so a new API package cannot be forgotten, nor an internal one exported), and
 * the modules resolve together on a module path, where their services bind and their registries
 * find them through {@code uses}.
 *
 * <p>The tests of each module run on the class path (docs/architecture.md, "Modules"); this test
 * is what runs the descriptors themselves.
 */
class ModuleDescriptorsTest {
  private static final String MODULE_INFO = "module-info.class";

  @Test
  void eachLibraryModule_exportsExactlyItsNonInternalPackages() throws IOException {
    for (String module : Build.LIBRARY_MODULES) {
      Path classes = Build.projectRoot().resolve(module).resolve("target/classes");
      ModuleDescriptor d = descriptor(classes);
      Set<String> packages = packages(classes);
      Set<String> api = new TreeSet<>();
      for (String p : packages) {
        if (!Arrays.asList(p.split("\\.")).contains("internal")) {
          api.add(p);
        }
      }
      assertThat(d.name()).as(module).isEqualTo(moduleName(module));
      assertThat(d.exports()).as(module + ": qualified exports")
          .allSatisfy(e -> assertThat(e.isQualified()).isFalse());
      Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source)
          .collect(Collectors.toCollection(TreeSet::new));
      assertThat(exported).as(module + "'s exports (its packages without an 'internal' segment)")
          .isEqualTo(api);
      assertThat(d.opens()).as(module + ": opens only internal packages, only to protobuf")
          .allSatisfy(o -> {
            assertThat(o.source()).contains(".internal");
            assertThat(o.targets()).containsExactly("com.google.protobuf");
          });
    }
  }

  @Test
  void engineModules_haveNoDescriptor() {
    for (String module : Build.ENGINE_MODULES) {
      assertThat(Build.projectRoot().resolve(module).resolve("target/classes")
          .resolve(MODULE_INFO)).as(module + " (Spark is not modular)").doesNotExist();
    }
  }

  @Test
  void libraryModules_resolveOnAModulePath_andTheirRegistriesFindTheirServices()
      throws Exception {
    List<String> roots = Build.LIBRARY_MODULES.stream().map(ModuleDescriptorsTest::moduleName)
        .toList();
    ModuleFinder finder = ModuleFinder.of(modulePath(roots).toArray(Path[]::new));
    Configuration cf = ModuleLayer.boot().configuration()
        .resolveAndBind(finder, ModuleFinder.of(), roots);
    ModuleLayer layer = ModuleLayer.boot()
        .defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    ClassLoader loader = layer.findLoader("io.tributary.learning");

    // The registries call ServiceLoader from their named modules: without `uses` this throws.
    Object algorithms = loader.loadClass("io.tributary.learning.AlgorithmRegistry")
        .getMethod("load", ClassLoader.class).invoke(null, loader);
    List<?> specs = (List<?>) algorithms.getClass().getMethod("specs").invoke(algorithms);
    assertThat(specs).hasSize(13);
    Object serializers = loader.loadClass("io.tributary.tensor.serialization.SerializerRegistry")
        .getMethod("load", ClassLoader.class).invoke(null, loader);
    assertThat((List<?>) serializers.getClass().getMethod("available").invoke(serializers))
        .hasSize(2);

    assertThat(providers(layer, loader, "io.tributary.flower.server.SecureFitProtocol"))
        .containsExactly("io.tributary.flower.secagg.SecAggServerProtocol");
    assertThat(layer.findModule("io.tributary.simulation").orElseThrow().getDescriptor().uses())
        .containsExactly("io.tributary.simulation.EngineProvider");
  }

  private static List<String> providers(ModuleLayer layer, ClassLoader loader, String service)
      throws ClassNotFoundException {
    Class<?> type = loader.loadClass(service);
    return java.util.ServiceLoader.load(layer, type).stream().map(p -> p.type().getName())
        .toList();
  }

  /**
   * The entries of this test's class path that the library modules need, following
   * {@code requires} from them: the whole class path holds test tools whose jars have no valid
   * module name or share packages.
   */
  private static List<Path> modulePath(List<String> roots) {
    Map<String, Path> byName = new LinkedHashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path path = Path.of(entry);
      try {
        for (ModuleReference ref : ModuleFinder.of(path).findAll()) {
          byName.putIfAbsent(ref.descriptor().name(), path);
        }
      } catch (FindException notAModule) {
        // A jar with no valid automatic module name (none of the library modules needs one).
      }
    }
    ModuleFinder all = ModuleFinder.of(byName.values().toArray(Path[]::new));
    ModuleFinder system = ModuleFinder.ofSystem();
    Set<String> seen = new TreeSet<>();
    List<Path> path = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    Deque<String> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (!seen.add(name) || system.find(name).isPresent()) {
        continue;
      }
      ModuleReference ref = all.find(name).orElse(null);
      if (ref == null) {
        missing.add(name);
        continue;
      }
      path.add(byName.get(name));
      for (ModuleDescriptor.Requires r : ref.descriptor().requires()) {
        if (!r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
          todo.add(r.name());
        }
      }
    }
    assertThat(missing).as("required modules not on the class path").isEmpty();
    return path;
  }

  private static ModuleDescriptor descriptor(Path classes) throws IOException {
    try (InputStream in = Files.newInputStream(classes.resolve(MODULE_INFO))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** The packages of the compiled classes (generated code included). */
  private static Set<String> packages(Path classes) throws IOException {
    try (Stream<Path> files = Files.walk(classes)) {
      return files.filter(f -> f.toString().endsWith(".class"))
          .filter(f -> !f.getFileName().toString().equals(MODULE_INFO))
          .map(f -> classes.relativize(f.getParent()).toString().replace(File.separatorChar, '.'))
          .filter(p -> !p.startsWith("META-INF"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /** {@code tributary-flower-secagg} is {@code io.tributary.flower.secagg}. */
  private static String moduleName(String artifactId) {
    return "io." + artifactId.replace('-', '.');
  }
}
