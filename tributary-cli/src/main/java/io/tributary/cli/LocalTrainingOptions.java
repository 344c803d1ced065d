package io.tributary.cli;

import io.tributary.data.FashionMnist;
import io.tributary.data.Partitioner;
import io.tributary.flower.training.TrainingClient;
import io.tributary.flower.training.TrainingSettings;
import io.tributary.graph.local.GraphBindingException;
import io.tributary.graph.models.Model;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The options of a networked client's local training, shared by {@code client} and
 * {@code supernode}: which partition of which data it holds, the model, and the SGD settings a
 * server's config does not override.
 */
final class LocalTrainingOptions {
  @Option(names = "--model", paramLabel = "mclr|mlp|cnn",
      description = "the network, as in simulate (default: mlp for digits and fashion-mnist, "
          + "mclr for synthetic); the server's model must hold its parameters in order")
  String model;

  @Option(names = "--dataset", paramLabel = "NAME",
      description = "digits, synthetic:ALPHA,BETA, synthetic-iid, fashion-mnist, "
          + "generated:FEATURES,CLASSES,EXAMPLES, csv:PATH, parquet:PATH or npz-dir:DIR (your data, as in "
          + "simulate: --partition I/N holds its client I) (default: digits)")
  String dataset = "digits";

  @Option(names = "--client-column", paramLabel = "NAME",
      description = "csv and parquet: the client column (default: client)")
  String clientColumn;

  @Option(names = "--label-column", paramLabel = "NAME",
      description = "csv and parquet: the label column (default: label)")
  String labelColumn;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "the directory of file-based data (fashion-mnist)")
  Path dataDir;

  @Option(names = "--partition", paramLabel = "I/N",
      description = "train partition I (from 0) of N; clients with the same N and --seed hold "
          + "disjoint partitions (default: 0/1, all the data)")
  String partition = "0/1";

  @Option(names = "--split", paramLabel = "iid|dirichlet:ALPHA|shards:K",
      description = "how pooled training data (digits, fashion-mnist) are split among the N "
          + "clients, as `tributary simulate --partition` splits them: with the same N and "
          + "--seed, partition I holds simulate's client I's training examples (default: iid; "
          + "synthetic data come split by device and take no --split)")
  String split;

  @Option(names = "--local-epochs", paramLabel = "E",
      description = "passes over the partition per round, unless the server's config says "
          + "(default: 1)")
  int localEpochs = 1;

  @Option(names = "--batch-size", paramLabel = "B",
      description = "SGD minibatch size (default: 16)")
  int batchSize = 16;

  @Option(names = "--lr", paramLabel = "LR",
      description = "SGD learning rate, unless the server's config says (default: 0.1)")
  double lr = 0.1;

  @Option(names = "--seed", paramLabel = "S",
      description = "the seed of the data split, partition, initial model, shuffling and "
          + "reconnection backoff (default: 1)")
  long seed = 1;

  /** The data could not be read; {@code where} is the file or folder to name. */
  static final class DataException extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Path where;
    final IOException problem;

    DataException(Path where, IOException problem) {
      super(problem);
      this.where = where;
      this.problem = problem;
    }
  }

  /** A training client ready to serve, and the line that describes it. */
  record Prepared(TrainingClient client, String description) {}

  /** The options checked, without reading any data. */
  private record Checked(int[] part, DatasetSpec data, ModelKind kind, Partitioner split) {}

  private Checked check() {
    DatasetSpec data = DatasetSpec.parse(dataset);
    if (data instanceof DatasetSpec.Table csv) {
      data = csv.withColumns(clientColumn != null ? clientColumn : csv.clientColumn(),
          labelColumn != null ? labelColumn : csv.labelColumn(), csv.featureColumns());
    } else if (clientColumn != null || labelColumn != null) {
      throw new IllegalArgumentException((clientColumn != null ? "--client-column"
          : "--label-column") + " applies only to --dataset csv:PATH and parquet:PATH");
    }
    ModelKind kind = model != null ? ModelKind.parse(model)
        : data.naturallyPartitioned() ? ModelKind.MCLR : ModelKind.MLP;
    return new Checked(partition(partition), data, kind, splitFor(data));
  }

  /**
   * Checks every option, then loads this client's partition and builds its model.
   *
   * @param beforeLoading run once the options proved usable, before the data are read
   * @throws IllegalArgumentException naming a bad option
   * @throws DataException when the data cannot be read
   * @throws GraphBindingException when the model cannot be prepared
   */
  Prepared prepare(Runnable beforeLoading) throws DataException, GraphBindingException {
    Checked c = check();
    TrainingSettings settings = new TrainingSettings(localEpochs, batchSize, lr, 0,
        Seeds.model(seed));
    beforeLoading.run();
    ClientData cd;
    try {
      cd = ClientData.load(c.data(), dataDir, c.part()[0], c.part()[1], c.split(), c.kind(),
          seed);
    } catch (IOException e) {
      throw new DataException(c.data() instanceof DatasetSpec.Table csv ? csv.file()
          : c.data() instanceof DatasetSpec.NpzDir npz ? npz.dir()
          : dataDir != null ? dataDir : FashionMnist.DEBIAN_DIR, e);
    }
    Model net = c.kind().build(cd.name(), cd.train().exampleShape(), cd.train().numClasses());
    TrainingClient client = new TrainingClient(net, cd.train(), cd.test(), settings);
    String what = String.format(Locale.ROOT, "partition %d/%d of %s%s (%d train, %d test "
        + "examples), model %s (%d parameters)", c.part()[0], c.part()[1], c.data(),
        c.data().naturallyPartitioned() ? "" : ", split " + c.split(), cd.train().size(),
        cd.test().size(), c.kind().cliName(), net.parameterCount());
    return new Prepared(client, what);
  }

  /** The partitioner --split names, checked against the dataset before any data is read. */
  private Partitioner splitFor(DatasetSpec data) {
    if (data.naturallyPartitioned()) {
      if (split != null) {
        throw new IllegalArgumentException("--split does not apply to " + data
            + ": its data come split by device");
      }
      return new Partitioner.Iid();
    }
    return Partitioner.parse(split == null ? "iid" : split);
  }

  /** {@code I/N} with 0 <= I < N. */
  static int[] partition(String text) {
    String[] p = text.strip().split("/", -1);
    try {
      if (p.length == 2) {
        int[] v = Arrays.stream(p).mapToInt(s -> Integer.parseInt(s.strip())).toArray();
        if (v[1] >= 1 && v[0] >= 0 && v[0] < v[1]) {
          return v;
        }
      }
    } catch (NumberFormatException e) {
      // Reported below with the expected form.
    }
    throw new IllegalArgumentException("--partition '" + text
        + "': use I/N with 0 <= I < N, e.g. 0/10");
  }
}
