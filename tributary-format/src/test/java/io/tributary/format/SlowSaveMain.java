package io.tributary.format;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

/**
 * A writer process for {@link AtomicSaveTest}: saves a model of args[1] 1 MiB parameters to the
 * file in args[0], printing each entry as it is written, and stalls for a minute after the
 * args[2]-th entry (0: never), so the test can kill it at a known point of the save.
 */
public final class SlowSaveMain {
  private SlowSaveMain() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    int stallAfter = Integer.parseInt(args[2]);
    int[] written = {0};
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    SequencedMap<String, Tensor> params = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      params.put("p" + i, Samples.floats(1000 + i, 256, 1024));
    }
    SequencedMap<String, TagContents> tags = new LinkedHashMap<>();
    tags.put("new", TagContents.of(params));
    ModelWriter.save(file, tags, (entry, bytes) -> {
      out.println("wrote " + entry + " " + bytes);
      if (++written[0] != stallAfter) {
        return;
      }
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    out.println("done");
  }
}
