package io.tributary.cli;

import io.tributary.cli.report.HtmlReport;
import io.tributary.cli.report.RoundMetrics;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.models.Model;
import io.tributary.runtime.ExecutionFailedException;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npz;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One {@code tributary simulate} run from settings to files: prepares the output directory,
 * loads the data, runs the rounds through {@link FederatedRun}, and writes the metrics, final
 * parameters and report. Whatever happens after the first round, the report and metrics of the
 * rounds that finished are left on disk.
 */
final class Simulation {
  static final String METRICS = "metrics.jsonl";
  static final String CONFIG = "config.json";
  static final String FINAL = "final.npz";
  static final String REPORT = "report.html";
  static final String CLIENTS = "clients.json";
  static final String MODEL = "model.zip";

  private final SimulationConfig config;
  private final ResumePoint resume;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Progress.Style style;
  private Verbose verbose = new Verbose();

  /**
   * @param resume the checkpoint a resumed run goes on from, or null for a new run
   */
  Simulation(SimulationConfig config, ResumePoint resume, PrintWriter out, PrintWriter err,
      Progress.Style style) {
    this.config = config;
    this.resume = resume;
    this.out = out;
    this.err = err;
    this.style = style;
  }

  /** With {@code --verbose}, a failure's stack trace follows its line. */
  Simulation verbose(Verbose v) {
    this.verbose = v;
    return this;
  }

  /** Runs the simulation and returns the exit status. */
  int run() {
    Path dir = config.out();
    SimulationData data;
    Model model;
    try {
      data = SimulationData.load(config);
      model = config.model().build(data.name(), data.exampleShape(), data.numClasses());
    } catch (IOException e) {
      Path where = config.dataDir() != null ? config.dataDir()
          : io.tributary.data.FashionMnist.DEBIAN_DIR;
      return SimulateCommand.problem(err, where, e);
    } catch (IllegalArgumentException e) {
      return SimulateCommand.usage(err, e.getMessage());
    }
    // The directory is made only once the settings proved usable, so a mistake leaves nothing.
    // A resumed run keeps its directory: config.json and clients.json are already the run's.
    if (resume == null) {
      try {
        prepare(dir);
        Files.writeString(dir.resolve(CLIENTS), clientsJson(data), StandardCharsets.UTF_8);
      } catch (IOException e) {
        return SimulateCommand.problem(err, dir, e);
      }
    }
    err.printf(Locale.ROOT, "%s on %s: %d clients (%d per round), model %s (%d parameters), "
        + "%d rounds; writing %s%n", config.algorithm().cliName(), config.dataset(),
        data.clientTrain().size(), config.clientsPerRound(), config.model().cliName(),
        model.parameterCount(), config.rounds(), dir);
    if (resume != null) {
      err.printf(Locale.ROOT, "resuming after round %d (the checkpoint in %s)%n", resume.round(),
          dir.resolve(MODEL));
    }
    err.flush();
    List<RoundMetrics> rounds = new ArrayList<>();
    String outcome;
    int status = 0;
    long start = System.nanoTime();
    int first = resume == null ? 1 : resume.round() + 1;
    try (FederatedRun run = new FederatedRun(config, data, model);
        MetricsLog log = openLog(dir, rounds);
        Checkpoints checkpoints = new Checkpoints(dir.resolve(MODEL), model, config)) {
      if (resume != null) {
        try {
          run.restore(resume.parameters());
        } catch (IllegalArgumentException e) {
          throw new TensorFileException("its checkpoint does not fit the run's model: "
              + e.getMessage());
        }
      }
      Progress progress = new Progress(err, style, config.rounds(), first);
      try {
        for (int r = first; r <= config.rounds(); r++) {
          RoundMetrics m = round(run, r);
          log.write(m);
          rounds.add(m);
          if (checkpoints.due(r)) {
            checkpoints.save(r, run.parameters());
          }
          progress.round(m);
        }
      } finally {
        progress.finish();
      }
      writeFinal(dir, run.parameters());
      checkpoints.awaitWritten();
      outcome = String.format(Locale.ROOT, "Completed %d rounds in %.1f s%s.", config.rounds(),
          (System.nanoTime() - start) / 1e9,
          resume == null ? "" : " (resumed after round " + resume.round() + ")");
    } catch (ExecutionFailedException e) {
      outcome = "Stopped in round " + (rounds.size() + 1) + ": " + e.getMessage();
      err.println("tributary simulate: " + outcome.replaceAll("\\R", " "));
      verbose.trace(err, e);
      status = 1;
    } catch (GraphBindingException e) {
      outcome = "Could not prepare the model: " + e.getMessage();
      err.println("tributary simulate: " + outcome.replaceAll("\\R", " "));
      verbose.trace(err, e);
      status = 1;
    } catch (IOException e) {
      return SimulateCommand.problem(err, dir, e);
    }
    try {
      Files.writeString(dir.resolve(REPORT), HtmlReport.render(title(data), outcome,
          config.settings(), rounds), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return SimulateCommand.problem(err, dir.resolve(REPORT), e);
    }
    summary(dir, rounds, outcome);
    return status;
  }

  private RoundMetrics round(FederatedRun run, int r) {
    long t0 = System.nanoTime();
    FederatedRun.Step step = run.round(r);
    FederatedRun.Score train = run.scoreTrain();
    FederatedRun.Score test = run.scoreTest();
    double seconds = (System.nanoTime() - t0) / 1e9;
    long up = (long) (step.clients() - step.failures()) * run.parameterBytes();
    long down = (long) step.clients() * run.parameterBytes();
    List<String> reasons = new ArrayList<>(step.reasons());
    reasons.addAll(train.excluded());
    reasons.addAll(test.excluded());
    return new RoundMetrics(r, train.loss(), train.accuracy(), test.loss(), test.accuracy(),
        step.clientLoss(), step.clients(), step.examples(), step.failures(), seconds, up, down,
        reasons, train.excluded().size() + test.excluded().size());
  }

  /**
   * The metrics log: a new one, or for a resumed run the old one cut back to the checkpoint's
   * round, whose rounds are added to {@code rounds}.
   */
  private MetricsLog openLog(Path dir, List<RoundMetrics> rounds) throws IOException {
    if (resume == null) {
      return new MetricsLog(dir.resolve(METRICS));
    }
    MetricsLog.Resumed r = MetricsLog.resume(dir.resolve(METRICS), resume.round());
    try {
      for (String line : r.kept()) {
        rounds.add(MetricsLog.parse(line));
      }
    } catch (IOException e) {
      r.log().close();
      throw e;
    }
    return r.log();
  }

  /** Creates the directory and writes {@code config.json}; refuses a directory holding a run. */
  private void prepare(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (String name : List.of(METRICS, CONFIG, CLIENTS, FINAL, MODEL, REPORT)) {
      if (Files.exists(dir.resolve(name))) {
        throw new IOException("already holds a run (" + name + "); choose another --out");
      }
    }
    Files.writeString(dir.resolve(CONFIG), config.toJson(), StandardCharsets.UTF_8);
  }

  /** {@code clients.json}: each client's number of training examples and the test set's size. */
  static String clientsJson(SimulationData data) {
    StringBuilder s = new StringBuilder("{\"train_sizes\": [");
    for (int k = 0; k < data.clientTrain().size(); k++) {
      s.append(k == 0 ? "" : ", ").append(data.clientTrain().get(k).size());
    }
    return s.append("], \"test_size\": ").append(data.test().size()).append("}\n").toString();
  }

  private static void writeFinal(Path dir, Map<String, Tensor> parameters) throws IOException {
    Npz.write(dir.resolve(FINAL), parameters, false);
  }

  private String title(SimulationData data) {
    return config.algorithm().cliName() + " on " + config.dataset() + " (" + config.model().cliName()
        + ", " + config.clients() + " clients)";
  }

  private void summary(Path dir, List<RoundMetrics> rounds, String outcome) {
    if (!rounds.isEmpty()) {
      RoundMetrics last = rounds.getLast();
      out.printf(Locale.ROOT, "round %d: test accuracy %.4f, test loss %.4f, training loss %.4f%n",
          last.round(), last.testAccuracy(), last.testLoss(), last.trainLoss());
    }
    out.println(outcome);
    out.println("report: " + dir.resolve(REPORT));
    out.flush();
  }
}
