package io.tributary.flower.fleet.server;

import io.tributary.flower.fleet.server.internal.AppToml;
import io.tributary.flower.fleet.server.internal.FabBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A Flower App as a Tributary server serves it to SuperNodes: its FAB (Flower App Bundle), the
 * FAB's hash (lowercase hex SHA-256 of its bytes, as Flower computes it), its FAB id
 * ({@code publisher/name}), version and the run config defaults of its
 * {@code [tool.flwr.app.config]}.
 *
 * <pre>{@code
 * FlowerApp app = FlowerApp.load(Path.of("examples/quickstart-numpy"));  // or a .fab file
 * }</pre>
 */
public final class FlowerApp {
  private final byte[] fab;
  private final String hash;
  private final AppToml toml;

  private FlowerApp(byte[] fab, AppToml toml) {
    this.fab = fab;
    this.hash = FabBuilder.sha256(fab);
    this.toml = toml;
  }

  /**
   * The App in a directory (with a {@code pyproject.toml} holding {@code [tool.flwr.app]}),
   * bundled as Flower bundles it, or in a {@code .fab} file, served as it is.
   *
   * @throws FlowerAppException if the path is neither, the pyproject lacks the project's name,
   *     version or the App's publisher, or the FAB exceeds Flower's 10 MB limit
   */
  public static FlowerApp load(Path path) throws FlowerAppException {
    try {
      if (Files.isDirectory(path)) {
        byte[] fab = FabBuilder.build(path);
        return new FlowerApp(fab, tomlOf(fab, path.toString()));
      }
      if (Files.isRegularFile(path)) {
        if (Files.size(path) > FabBuilder.MAX_FAB_BYTES) {
          throw new FlowerAppException(path + " is " + Files.size(path) + " bytes, over Flower's "
              + "FAB limit of " + FabBuilder.MAX_FAB_BYTES, null);
        }
        byte[] fab = Files.readAllBytes(path);
        return new FlowerApp(fab, tomlOf(fab, path.toString()));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new FlowerAppException("Flower App " + path + ": " + e.getMessage(), e);
    }
    throw new FlowerAppException("Flower App " + path + " is neither a directory nor a .fab "
        + "file", null);
  }

  private static AppToml tomlOf(byte[] fab, String where) throws IOException {
    try (InputStream in = new ByteArrayInputStream(fab);
        ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
        if (e.getName().equals("pyproject.toml")) {
          byte[] text = zip.readNBytes(AppToml.MAX_BYTES + 1);
          if (text.length > AppToml.MAX_BYTES) {
            throw new IllegalArgumentException("pyproject.toml is over " + AppToml.MAX_BYTES
                + " bytes");
          }
          return AppToml.parse(new String(text, StandardCharsets.UTF_8), "pyproject.toml");
        }
      }
    }
    throw new IllegalArgumentException(where + " is not a FAB: it has no pyproject.toml");
  }

  /** The FAB's bytes. */
  public byte[] fab() {
    return fab.clone();
  }

  /** The FAB's size in bytes. */
  public int fabSize() {
    return fab.length;
  }

  /** The lowercase hex SHA-256 of the FAB's bytes, which SuperNodes ask for and check. */
  public String hash() {
    return hash;
  }

  /** {@code publisher/name}, Flower's FAB id. */
  public String fabId() {
    return toml.publisher() + "/" + toml.name();
  }

  /** The project's version. */
  public String version() {
    return toml.version();
  }

  /** The run config defaults of {@code [tool.flwr.app.config]}, flattened to dotted keys. */
  public SequencedMap<String, Object> config() {
    return Collections.unmodifiableSequencedMap(new LinkedHashMap<>(toml.config()));
  }

  @Override
  public String toString() {
    return fabId() + " " + version() + " (FAB " + hash.substring(0, 8) + ", " + fab.length
        + " bytes)";
  }
}
