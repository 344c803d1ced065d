package io.tributary.flower.fleet.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.FlowerAppException;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FAB as Flower 1.27's {@code build_fab_from_files} lays it out, and the App's metadata. */
class FabBuilderTest {
  @TempDir Path dir;

  private Path app() throws Exception {
    Path app = dir.resolve("my-app");
    Files.createDirectories(app.resolve("pkg/__pycache__"));
    Files.createDirectories(app.resolve(".flwr"));
    Files.createDirectories(app.resolve("data"));
    Files.writeString(app.resolve("pyproject.toml"), """
        [project]
        name = "my-app"
        version = "1.2.3"  # a comment

        [tool.flwr.app]
        publisher = "someone"

        [tool.flwr.app.components]
        clientapp = "pkg.client_app:app"

        [tool.flwr.app.config]
        num-server-rounds = 3
        lr = 0.5
        "quoted.key" = "text # not a comment"
        deep.nested = true
        arr = [1,
          2]

        [tool.flwr.federations.local]
        options.num-supernodes = 2
        """);
    Files.writeString(app.resolve("pkg/client_app.py"), "app = None\n");
    Files.writeString(app.resolve("pkg/__init__.py"), "");
    Files.writeString(app.resolve("pkg/__pycache__/x.py"), "cached\n");
    Files.writeString(app.resolve(".flwr/config.toml"), "x = 1\n");
    Files.writeString(app.resolve("data/big.bin"), "not bundled\n");
    Files.writeString(app.resolve("README.md"), "# app\n");
    Files.writeString(app.resolve("LICENSE"), "license\n");
    Files.writeString(app.resolve("pkg/secret.py"), "ignored\n");
    Files.writeString(app.resolve(".gitignore"), "secret.py\n");
    return app;
  }

  private static Map<String, byte[]> entries(byte[] fab, List<String> order,
      List<LocalDateTime> times) throws Exception {
    Map<String, byte[]> out = new LinkedHashMap<>();
    try (ZipInputStream z = new ZipInputStream(new ByteArrayInputStream(fab))) {
      for (ZipEntry e; (e = z.getNextEntry()) != null; ) {
        order.add(e.getName());
        times.add(e.getTimeLocal());
        out.put(e.getName(), z.readAllBytes());
      }
    }
    return out;
  }

  @Test
  void build_appDirectory_pyprojectFirstSortedFilesThenContentManifest() throws Exception {
    byte[] fab = FabBuilder.build(app());
    List<String> order = new ArrayList<>();
    List<LocalDateTime> times = new ArrayList<>();
    Map<String, byte[]> e = entries(fab, order, times);
    assertThat(order).containsExactly("pyproject.toml", "LICENSE", "README.md",
        "pkg/__init__.py", "pkg/client_app.py", ".info/CONTENT");
    assertThat(times).allMatch(t -> t.equals(LocalDateTime.of(2024, 10, 1, 0, 0, 0)));
    String toml = new String(e.get("pyproject.toml"), StandardCharsets.UTF_8);
    assertThat(toml).doesNotContain("federations").contains("num-server-rounds = 3");
    String[] manifest = new String(e.get(".info/CONTENT"), StandardCharsets.UTF_8).split("\n");
    assertThat(manifest).hasSize(5);
    assertThat(manifest[3]).isEqualTo("pkg/__init__.py,"
        + FabBuilder.sha256(new byte[0]) + ",0");
    assertThat(manifest[0]).isEqualTo("pyproject.toml," + FabBuilder.sha256(e.get(
        "pyproject.toml")) + "," + e.get("pyproject.toml").length * 8);
  }

  @Test
  void load_appDirectory_hashIsTheSha256OfTheFabAndConfigIsFlattened() throws Exception {
    FlowerApp app = FlowerApp.load(app());
    assertThat(app.hash()).isEqualTo(FabBuilder.sha256(app.fab()));
    assertThat(app.fabId()).isEqualTo("someone/my-app");
    assertThat(app.version()).isEqualTo("1.2.3");
    assertThat(app.config()).containsExactly(Map.entry("num-server-rounds", 3L),
        Map.entry("lr", 0.5), Map.entry("quoted.key", "text # not a comment"),
        Map.entry("deep.nested", true));
    Path fab = dir.resolve("app.fab");
    Files.write(fab, app.fab());
    FlowerApp again = FlowerApp.load(fab);
    assertThat(again.hash()).isEqualTo(app.hash());
    assertThat(again.fabId()).isEqualTo(app.fabId());
  }

  @Test
  void load_noPublisher_refusedNamingIt() throws Exception {
    Path app = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(app.resolve("pyproject.toml"), "[project]\nname = \"x\"\nversion = \"1\"\n");
    assertThatThrownBy(() -> FlowerApp.load(app)).isInstanceOf(FlowerAppException.class)
        .hasMessageContaining("[tool.flwr.app] publisher");
  }

  @Test
  void load_notAZip_refused() throws Exception {
    Path fab = dir.resolve("x.fab");
    Files.writeString(fab, "not a zip");
    assertThatThrownBy(() -> FlowerApp.load(fab)).isInstanceOf(FlowerAppException.class)
        .hasMessageContaining("no pyproject.toml");
  }

  @Test
  void matches_gitStylePatterns_asGitwildmatch() {
    PathPatterns p = PathPatterns.of(List.of("**/*.py", "/LICENSE", "build/", "!keep.py"));
    assertThat(p.matches("a.py")).isTrue();
    assertThat(p.matches("x/y/a.py")).isTrue();
    assertThat(p.matches("LICENSE")).isTrue();
    assertThat(p.matches("x/LICENSE")).isFalse();
    assertThat(p.matches("build/out.txt")).isTrue();
    assertThat(p.matches("keep.py")).isFalse();
    assertThat(p.matches("a.pyc")).isFalse();
  }

  @Test
  void pythonFloat_variousValues_asPythonsStr() {
    double[] in = {1e-5, 0.0001, 1e16, 1.5e300, 0.1, 2.0, -0.5, 123456789012345.6, 1e15, 5e-324,
        -0.0, 0.3333333333333333};
    String[] out = {"1e-05", "0.0001", "1e+16", "1.5e+300", "0.1", "2.0", "-0.5",
        "123456789012345.6", "1000000000000000.0", "5e-324", "-0.0", "0.3333333333333333"};
    for (int i = 0; i < in.length; i++) {
      assertThat(TomlWriter.pythonFloat(in[i])).as("%s", in[i]).isEqualTo(out[i]);
    }
  }

  @Test
  void pyproject_rewrittenAsTomliW_tablesAfterValuesArraysOnePerLine() {
    String out = FabBuilder.pyproject("""
        [tool.flwr.app.config]
        x = 1
        [project]
        name = 'n'
        deps = ["a", 'b']
        [tool.flwr.federations]
        default = "local"
        """, "t");
    assertThat(out).isEqualTo("""
        [tool.flwr.app.config]
        x = 1

        [project]
        name = "n"
        deps = [
            "a",
            "b",
        ]
        """);
  }

  @Test
  void pyproject_notToml_refusedWithTheLine() {
    for (String bad : new String[] {"a = 1\na = 2\n", "[x]\n[x]\n", "a = 'it''s'\n",
        "a = \"open\n", "a = [1, 2\n", "d = 1979-05-27\n", "= 1\n", "a = 0x\n"}) {
      assertThatThrownBy(() -> FabBuilder.pyproject(bad, "p.toml")).as(bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("p.toml line ");
    }
  }
}
