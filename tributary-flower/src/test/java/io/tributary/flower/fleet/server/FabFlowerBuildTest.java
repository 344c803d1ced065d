package io.tributary.flower.fleet.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.tensor.testing.PythonEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FAB a {@link FlowerApp} serves is, byte for byte, the one Flower 1.27's own
 * {@code flwr build} makes of the same App directory, so its hash is the one Flower computes.
 */
@Timeout(180)
class FabFlowerBuildTest {
  @TempDir Path dir;

  /** The {@code .fab} {@code flwr build --app app} writes. */
  private byte[] flwrBuild(FlowerPeer flower, Path app) throws Exception {
    Path out = Files.createDirectories(dir.resolve("out-" + app.getFileName()));
    flower.run(out, Duration.ofSeconds(120), "-c",
        "import sys; from flwr.cli.app import app; sys.argv = ['flwr', 'build', '--app', '"
        + app + "']; app()");
    try (Stream<Path> s = Files.list(out)) {
      List<Path> fabs = s.filter(p -> p.toString().endsWith(".fab")).toList();
      assertThat(fabs).hasSize(1);
      return Files.readAllBytes(fabs.getFirst());
    }
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(b));
  }

  @Test
  void load_flowersQuickstartNumpy_fabAndHashEqualFlwrBuilds() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path src = PythonEnv.projectRoot().getParent()
        .resolve("shared/peers/flower/examples/quickstart-numpy");
    if (!Files.isDirectory(src)) {
      PythonEnv.unavailable("Flower's quickstart-numpy not found at " + src);
    }
    Path app = dir.resolve("quickstart-numpy");
    copy(src, app);
    byte[] expected = flwrBuild(flower, app);
    FlowerApp ours = FlowerApp.load(app);
    assertThat(ours.hash()).isEqualTo(sha256(expected));
    assertThat(ours.fab()).isEqualTo(expected);
  }

  @Test
  void load_appWithEveryKindOfTomlValue_fabAndHashEqualFlwrBuilds() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path app = dir.resolve("tricky-app");
    Files.createDirectories(app.resolve("pkg/sub"));
    Files.createDirectories(app.resolve("pkg/__pycache__"));
    Files.writeString(app.resolve("pyproject.toml"), """
        # leading comment
        [build-system]
        requires = ['hatchling', "x>=1"]   # trailing comment
        build-backend = "hatchling.build"

        [project]
        name = "tricky-app"
        version = "0.1.0"
        description = \"""
        Two lines, a "quote", a tab\\t and \\
            a folded line.\"""
        authors = [{ name = "Ünïcødé ☃", email = "a@b.c" }, {name="B"}]
        keywords = []
        readme = '''C:\\raw\\path'''

        [tool.extra]
        matrix = [[1, 2], [3, [4, 5]], []]
        mixed = [1, "two", 3.0, { k = "v" }]

        [tool.flwr.app]
        publisher = "someone"

        [tool.flwr.app.components]
        serverapp = "pkg.server_app:app"
        clientapp = "pkg.client_app:app"

        [tool.flwr.app.config]
        num-server-rounds = 3
        lr = 0.0001
        tiny = 1e-5
        big = 1e16
        huge = 1.5E+300
        third = 0.3333333333333333
        whole = 2.0
        neg = -0.5
        hex = 0xDEAD_BEEF
        oct = 0o17
        bin = 0b101
        under = 1_000_000
        plus = +7
        pinf = inf
        ninf = -inf
        flag = false
        "quoted.key" = "text # not a comment"
        'literal key' = 'it "is"'
        deep.nested.value = true
        ctrl = "bell\\u0007 and \\u00e9"

        [[tool.flwr.app.rules]]
        name = "first"
        text = "a long string that makes this table too wide to be written inline by tomli_w ok"

        [[tool.flwr.app.rules]]
        name = "second"

        [tool.flwr.federations]
        default = "local"

        [tool.flwr.federations.local]
        options.num-supernodes = 2
        """);
    Files.writeString(app.resolve("pkg/__init__.py"), "");
    Files.writeString(app.resolve("pkg/client_app.py"), "app = None\n");
    Files.writeString(app.resolve("pkg/server_app.py"), "app = None\n");
    Files.writeString(app.resolve("pkg/sub/util.py"), "# ünïcødé\n");
    Files.writeString(app.resolve("pkg/sub/notes.md"), "notes\n");
    Files.writeString(app.resolve("pkg/__pycache__/x.py"), "cached\n");
    Files.writeString(app.resolve("pkg/secret.py"), "ignored\n");
    Files.writeString(app.resolve("data.csv"), "not bundled\n");
    Files.writeString(app.resolve("LICENSE"), "license\n");
    Files.writeString(app.resolve(".gitignore"), "  secret.py  \n# comment\n\n");
    byte[] expected = flwrBuild(flower, app);
    FlowerApp ours = FlowerApp.load(app);
    assertThat(new String(entry(ours.fab(), "pyproject.toml"), java.nio.charset.StandardCharsets
        .UTF_8)).isEqualTo(new String(entry(expected, "pyproject.toml"),
            java.nio.charset.StandardCharsets.UTF_8));
    assertThat(ours.fab()).isEqualTo(expected);
    assertThat(ours.hash()).isEqualTo(sha256(expected));
  }

  private static byte[] entry(byte[] zip, String name) throws Exception {
    try (java.util.zip.ZipInputStream z = new java.util.zip.ZipInputStream(
        new java.io.ByteArrayInputStream(zip))) {
      for (java.util.zip.ZipEntry e; (e = z.getNextEntry()) != null; ) {
        if (e.getName().equals(name)) {
          return z.readAllBytes();
        }
      }
    }
    throw new AssertionError("no " + name);
  }
}
