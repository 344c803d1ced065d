package io.tributary.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Compares text with a golden file under {@code src/test/resources/golden}.
 *
 * <p>Run with {@code -Dtributary.updateGolden=true} to rewrite the files after an intended
 * change; review the diff before committing.
 */
public final class Golden {
  private Golden() {}

  public static void assertMatches(String name, String actual) {
    Path file = goldenDir().resolve(name);
    try {
      if (Boolean.getBoolean("tributary.updateGolden")) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, actual, StandardCharsets.UTF_8);
      }
      assertThat(file).as("golden file %s", file).exists();
      String expected = Files.readString(file, StandardCharsets.UTF_8);
      assertThat(actual).as("golden file %s", name).isEqualTo(expected);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path goldenDir() {
    return Path.of(System.getProperty("user.dir")).resolve("src/test/resources/golden");
  }
}
