package io.tributary.flower.fleet.server.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Builds a Flower App Bundle byte for byte as Flower 1.27's {@code flwr build}
 * ({@code build_fab_from_files}) does, so that its hash is the one Flower computes: a zip
 * ({@link StoredZip}: entries stored, as Python's {@code writestr} of a {@code ZipInfo} leaves
 * them) whose entries carry the fixed date 2024-10-01 00:00:00, {@code pyproject.toml} first, then the App's files matching {@code **}{@code /*.py}, {@code **}{@code /*.toml},
 * {@code **}{@code /*.md} or {@code /LICENSE} and not {@code .flwr/**}, {@code __pycache__} or
 * the App's {@code .gitignore}, sorted by path, then {@code .info/CONTENT} with one
 * {@code path,sha256,size in bits} line per file. The FAB's hash is the SHA-256 of its bytes.
 *
 * <p>{@code pyproject.toml} is rewritten as Flower rewrites it: read ({@link TomlReader}), without
 * {@code [tool.flwr.federations]}, written back as {@code tomli_w} writes ({@link TomlWriter}).
 */
public final class FabBuilder {
  /** Flower's {@code FAB_MAX_SIZE}: 10 MB. */
  public static final int MAX_FAB_BYTES = 10 * 1024 * 1024;
  /** The most files looked at in an App directory. */
  public static final int MAX_FILES = 10_000;
  private static final PathPatterns INCLUDE = PathPatterns.of(List.of("**/*.py", "**/*.toml",
      "**/*.md", "/LICENSE"));
  private static final List<String> EXCLUDE = List.of(".flwr/**", "**/__pycache__/**",
      "pyproject.toml");

  private FabBuilder() {}

  /**
   * The FAB of the App in {@code dir}.
   *
   * @throws IOException if a file cannot be read
   * @throws IllegalArgumentException if the App has no pyproject.toml, or
   *     the FAB would be larger than {@link #MAX_FAB_BYTES}
   */
  public static byte[] build(Path dir) throws IOException {
    Path pyproject = dir.resolve("pyproject.toml");
    if (!Files.isRegularFile(pyproject)) {
      throw new IllegalArgumentException(dir + " has no pyproject.toml");
    }
    List<String> excludes = new ArrayList<>(EXCLUDE);
    Path gitignore = dir.resolve(".gitignore");
    if (Files.isRegularFile(gitignore)) {
      // Flower's load_gitignore_patterns: stripped lines, blanks and comments dropped.
      excludes.addAll(Files.readString(gitignore, StandardCharsets.UTF_8).lines()
          .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList());
    }
    PathPatterns exclude = PathPatterns.of(excludes);
    TreeMap<String, Path> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        String rel = dir.relativize(p).toString().replace('\\', '/');
        if (INCLUDE.matches(rel) && !exclude.matches(rel)) {
          if (files.size() == MAX_FILES) {
            throw new IllegalArgumentException(dir + " has more than " + MAX_FILES
                + " files to bundle");
          }
          files.put(rel, p);
        }
      }
    }
    StoredZip zip = new StoredZip(2024, 10, 1, 0, 0, 0);
    List<String> manifest = new ArrayList<>();
    long total = 0;
    byte[] toml = pyproject(Files.readString(pyproject, StandardCharsets.UTF_8),
        pyproject.toString()).getBytes(StandardCharsets.UTF_8);
    total += toml.length;
    manifest.add(add(zip, "pyproject.toml", toml));
    for (var e : files.entrySet()) {
      long size = Files.size(e.getValue());
      total += size;
      if (total > MAX_FAB_BYTES) {
        throw new IllegalArgumentException("the App's files exceed the FAB limit of "
            + MAX_FAB_BYTES + " bytes (at " + e.getKey() + ")");
      }
      manifest.add(add(zip, e.getKey(), Files.readAllBytes(e.getValue())));
    }
    add(zip, ".info/CONTENT", String.join("\n", manifest).getBytes(StandardCharsets.UTF_8));
    byte[] fab = zip.finish();
    if (fab.length > MAX_FAB_BYTES) {
      throw new IllegalArgumentException("the FAB is " + fab.length + " bytes, over Flower's "
          + "limit of " + MAX_FAB_BYTES);
    }
    return fab;
  }

  /**
   * {@code pyproject.toml} as {@code flwr build} puts it in the FAB: read, without
   * {@code [tool.flwr.federations]}, and written back as {@code tomli_w} writes.
   *
   * @throws IllegalArgumentException naming the line of what is not TOML
   */
  @SuppressWarnings("unchecked")
  static String pyproject(String toml, String where) {
    Map<String, Object> doc = TomlReader.read(toml, where);
    if (doc.get("tool") instanceof Map<?, ?> tool
        && tool.get("flwr") instanceof Map<?, ?> flwr) {
      ((Map<String, Object>) flwr).remove("federations");
    }
    return TomlWriter.write(doc);
  }

  private static String add(StoredZip zip, String path, byte[] content) {
    zip.add(path, content);
    return path + "," + sha256(content) + "," + (content.length * 8L);
  }

  /** The lowercase hex SHA-256 of {@code b}, as Flower's {@code hashlib.sha256().hexdigest()}. */
  public static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
