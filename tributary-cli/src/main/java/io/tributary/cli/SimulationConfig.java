package io.tributary.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SequencedMap;

/**
 * Every setting of one simulation, validated: what {@code config.json} records, so that the same
 * settings (the seed included) repeat the run exactly.
 *
 * @param algorithm fedavg or fedprox
 * @param dataset the data
 * @param dataDir the directory of file-based data, or null for the dataset's default location
 * @param partition {@code iid}, {@code dirichlet:ALPHA} or {@code shards:K}; {@code natural} for
 *     data that come split by device
 * @param model the network
 * @param clients the population size N
 * @param clientsPerRound the clients sampled each round, K in [1, N]
 * @param rounds the number of rounds R
 * @param localEpochs local epochs E per client update
 * @param batchSize the local batch size B
 * @param learningRate the client SGD step size
 * @param mu the FedProx proximal coefficient (0 for fedavg)
 * @param seed the one seed every random choice of the run derives from
 * @param threads the client worker threads
 * @param checkpointEvery rounds between checkpoints in {@code model.zip} (the last round always
 *     gets one)
 * @param out the output directory
 */
record SimulationConfig(Algorithm algorithm, DatasetSpec dataset, Path dataDir, String partition,
    ModelKind model, int clients, int clientsPerRound, int rounds, int localEpochs, int batchSize,
    double learningRate, double mu, long seed, int threads, int checkpointEvery, Path out) {

  /** The most clients a population may hold; each needs its own dataset in memory. */
  static final int MAX_CLIENTS = 100_000;
  /** The most rounds, so that a typo cannot start a run that never ends. */
  static final int MAX_ROUNDS = 1_000_000;
  /** The most local epochs, the limit the client update enforces. */
  static final int MAX_EPOCHS = 10_000;
  /** The most worker threads. */
  static final int MAX_THREADS = 1024;

  SimulationConfig {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(out, "out");
    range("--clients", clients, 1, MAX_CLIENTS);
    range("--clients-per-round", clientsPerRound, 1, clients);
    range("--rounds", rounds, 1, MAX_ROUNDS);
    range("--local-epochs", localEpochs, 1, MAX_EPOCHS);
    range("--batch-size", batchSize, 1, Integer.MAX_VALUE);
    range("--threads", threads, 1, MAX_THREADS);
    range("--checkpoint-every", checkpointEvery, 1, MAX_ROUNDS);
    if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
      throw new IllegalArgumentException("--lr must be positive and finite, got " + learningRate);
    }
    if (!(mu >= 0) || !Double.isFinite(mu)) {
      throw new IllegalArgumentException("--mu must be finite and >= 0, got " + mu);
    }
    if (algorithm == Algorithm.FEDAVG && mu != 0) {
      throw new IllegalArgumentException("--mu applies only to --algorithm fedprox (fedavg has no "
          + "proximal term)");
    }
    if (dataDir != null && !dataset.fileBased()) {
      throw new IllegalArgumentException("--data-dir applies only to file-based datasets "
          + "(fashion-mnist); " + dataset + " needs no files");
    }
    if (dataset.naturallyPartitioned() != partition.equals("natural")) {
      throw new IllegalArgumentException(dataset.naturallyPartitioned()
          ? "--partition does not apply to " + dataset + ": its data come split by device, one "
              + "device per client"
          : "partition 'natural' applies only to data split by device");
    }
  }

  private static void range(String flag, long v, long lo, long hi) {
    if (v < lo || v > hi) {
      throw new IllegalArgumentException(flag + " must be in [" + lo + ", " + hi + "], got " + v);
    }
  }

  /** The settings as the lines of {@code config.json}, in a fixed order. */
  String toJson() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", Json.string(algorithm.cliName()));
    m.put("dataset", Json.string(dataset.toString()));
    m.put("data_dir", dataDir == null ? "null" : Json.string(dataDir.toString()));
    m.put("partition", Json.string(partition));
    m.put("model", Json.string(model.cliName()));
    m.put("clients", Integer.toString(clients));
    m.put("clients_per_round", Integer.toString(clientsPerRound));
    m.put("rounds", Integer.toString(rounds));
    m.put("local_epochs", Integer.toString(localEpochs));
    m.put("batch_size", Integer.toString(batchSize));
    m.put("lr", Json.number(learningRate));
    m.put("mu", Json.number(mu));
    m.put("seed", Long.toString(seed));
    m.put("threads", Integer.toString(threads));
    m.put("checkpoint_every", Integer.toString(checkpointEvery));
    m.put("out", Json.string(out.toString()));
    m.put("command", Json.string(shellCommand()));
    StringBuilder s = new StringBuilder("{\n");
    int i = 0;
    for (var e : m.entrySet()) {
      s.append("  ").append(Json.string(e.getKey())).append(": ").append(e.getValue())
          .append(++i < m.size() ? ",\n" : "\n");
    }
    return s.append("}\n").toString();
  }

  /** The settings for the report's table, in display form. */
  SequencedMap<String, String> settings() {
    SequencedMap<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", algorithm.cliName());
    m.put("dataset", dataset.toString());
    if (dataDir != null) {
      m.put("data directory", dataDir.toString());
    }
    m.put("partition", partition);
    m.put("model", model.cliName());
    m.put("clients", Integer.toString(clients));
    m.put("clients per round", Integer.toString(clientsPerRound));
    m.put("rounds", Integer.toString(rounds));
    m.put("local epochs", Integer.toString(localEpochs));
    m.put("batch size", Integer.toString(batchSize));
    m.put("learning rate", number(learningRate));
    m.put("mu", number(mu));
    m.put("seed", Long.toString(seed));
    m.put("threads", Integer.toString(threads));
    m.put("checkpoint every", checkpointEvery + " rounds");
    m.put("output directory", out.toString());
    m.put("command", shellCommand());
    return m;
  }

  /**
   * The command that repeats this run: every setting spelled out, so later changes of the
   * defaults cannot change what it does. The thread count is included although results do not
   * depend on it.
   */
  List<String> commandLine() {
    List<String> c = new ArrayList<>(List.of("tributary", "simulate",
        "--algorithm", algorithm.cliName(), "--dataset", dataset.toString()));
    if (dataDir != null) {
      c.addAll(List.of("--data-dir", dataDir.toString()));
    }
    if (!dataset.naturallyPartitioned()) {
      c.addAll(List.of("--partition", partition));
    }
    c.addAll(List.of("--model", model.cliName(), "--clients", Integer.toString(clients),
        "--clients-per-round", Integer.toString(clientsPerRound), "--rounds",
        Integer.toString(rounds), "--local-epochs", Integer.toString(localEpochs),
        "--batch-size", Integer.toString(batchSize), "--lr", number(learningRate)));
    if (algorithm == Algorithm.FEDPROX) {
      c.addAll(List.of("--mu", number(mu)));
    }
    c.addAll(List.of("--seed", Long.toString(seed), "--threads", Integer.toString(threads),
        "--checkpoint-every", Integer.toString(checkpointEvery), "--out", out.toString()));
    return c;
  }

  /** {@link #commandLine()} as one line a POSIX shell reads back into the same words. */
  String shellCommand() {
    StringBuilder s = new StringBuilder();
    for (String w : commandLine()) {
      if (!s.isEmpty()) {
        s.append(' ');
      }
      s.append(w.matches("[A-Za-z0-9_./:,=+-]+") ? w : "'" + w.replace("'", "'\\''") + "'");
    }
    return s.toString();
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
        : String.valueOf(v).toLowerCase(Locale.ROOT);
  }
}
