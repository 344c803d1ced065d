package io.tributary.guide;

import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationListener;
import io.tributary.simulation.SimulationSettings;
import io.tributary.simulation.SimulationStart;
import io.tributary.tensor.Tensor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SequencedMap;

/** A listener of one's own that writes one CSV line per round, and a simulation that uses it. */
public final class CsvLog implements SimulationListener {
  private final Path file;
  private BufferedWriter out;

  /** A log that will write {@code file}. */
  public CsvLog(Path file) {
    this.file = file;
  }

  @Override
  public void started(SimulationStart start) throws IOException {
    out = Files.newBufferedWriter(file);
    out.write("round,train_loss,test_loss,test_accuracy,clients,seconds\n");
  }

  @Override
  public void roundEnded(RoundRecord r, SequencedMap<String, Tensor> parameters)
      throws IOException {
    out.write(String.format(Locale.ROOT, "%d,%.6f,%.6f,%.4f,%d,%.3f%n", r.round(),
        r.trainLoss(), r.testLoss(), r.testAccuracy(), r.clients(), r.seconds()));
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }

  public static void main(String[] args) throws Exception {
    Path csv = Path.of(args.length > 0 ? args[0] : "rounds.csv");
    SimulationSettings settings = SimulationSettings.builder()
        .model(ModelKind.MCLR).clients(6).clientsPerRound(3).rounds(4).seed(3).build();
    Simulation.builder(settings).listener(new CsvLog(csv)).build().run();
    System.out.print(Files.readString(csv));
  }
}
