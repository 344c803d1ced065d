package io.tributary.cli.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reader refuses hostile input with its typed exception, never an OutOfMemoryError, even
 * in a JVM whose whole heap is smaller than what the input declares or expands to.
 */
class SmallHeapReadersTest {
  @TempDir Path dir;

  @Test
  void readers_hostileInputsInA256MiBHeap_eachRefusedWithItsTypedException() throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        HostileInputsMain.class.getName(), dir.toString())
        .redirectErrorStream(true).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("child finished").isTrue();
    } finally {
      p.destroyForcibly();
    }
    assertThat(p.exitValue()).as("child exit status; output:%n%s", out).isZero();
    assertThat(out).doesNotContain("OutOfMemoryError").doesNotContain(" OOM ");
    Map<String, String> types = new LinkedHashMap<>();
    Map<String, String> messages = new LinkedHashMap<>();
    for (String line : out.strip().split("\\R")) {
      String[] parts = line.split(" ", 3);
      if (parts.length == 3 && HostileInputsMain.expected().containsKey(parts[0])) {
        types.put(parts[0], parts[1]);
        messages.put(parts[0], parts[2]);
      }
    }
    Map<String, String> expectedTypes = new LinkedHashMap<>();
    HostileInputsMain.expected().forEach((name, e) -> expectedTypes.put(name, e.get(0)));
    assertThat(types).as("exception type per case; output:%n%s", out).containsExactlyEntriesOf(expectedTypes);
    HostileInputsMain.expected().forEach((name, e) ->
        assertThat(messages.get(name)).as("why %s was refused", name).contains(e.get(1)));
  }
}
