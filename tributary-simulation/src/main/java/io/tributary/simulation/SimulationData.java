package io.tributary.simulation;

import io.tributary.data.CsvClients;
import io.tributary.data.ParquetClients;
import io.tributary.data.Dataset;
import io.tributary.data.Digits;
import io.tributary.data.FashionMnist;
import io.tributary.data.FederatedDataset;
import io.tributary.data.FederatedSource;
import io.tributary.data.GeneratedPopulation;
import io.tributary.data.NpzClients;
import io.tributary.data.Partition;
import io.tributary.data.Partitioner;
import io.tributary.data.Synthetic;
import io.tributary.data.TrainTestSplit;
import io.tributary.learning.SettingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The data of one simulation: each client's training set and the shared test set.
 *
 * @param name the dataset's name
 * @param clientTrain client k's training examples, one dataset per client; for a generated
 *     population ({@link #generated}) a list that makes client k's data when asked and holds none
 * @param test the held-out examples the global model is scored on
 */
public record SimulationData(String name, List<Dataset> clientTrain, Dataset test) {
  /** The share of pooled data sets (digits) held out for testing. */
  public static final double TEST_FRACTION = 0.2;

  /**
   * Checks that there is a client; a list of held datasets is copied, a generated one kept.
   *
   * @throws IllegalArgumentException when {@code clientTrain} is empty
   */
  public SimulationData {
    clientTrain = clientTrain instanceof GeneratedClients || clientTrain instanceof SourceClients
        ? clientTrain : List.copyOf(clientTrain);
    if (clientTrain.isEmpty()) {
      throw new IllegalArgumentException(name + ": no clients");
    }
  }

  /**
   * The data of {@code clients} clients of {@code population}, none made until asked for.
   *
   * @throws IllegalArgumentException when {@code clients} is not positive
   */
  public static SimulationData generated(GeneratedPopulation population, int clients,
      ModelKind model) {
    if (clients < 1) {
      throw new IllegalArgumentException(population.name() + ": no clients");
    }
    return new SimulationData(population.name(),
        new GeneratedClients(population, clients, model), forModel(population.test(), model));
  }

  /**
   * Client {@code k}'s number of training examples, without making a generated client's data.
   */
  public int clientSize(int k) {
    return clientTrain instanceof GeneratedClients g ? g.population.examplesPerClient()
        : clientTrain.get(k).size();
  }

  /**
   * The data of {@code source}'s clients, each read (and checked, {@link
   * FederatedSource#checked}) when asked for and never stored.
   *
   * @throws IllegalArgumentException when the source has another number of clients than {@code
   *     clients}
   */
  public static SimulationData of(FederatedSource source, int clients, ModelKind model) {
    if (source.clients() != clients) {
      throw new SettingException("clients", "{clients} must be the " + source.clients()
          + " clients of " + source.name() + ", got " + clients);
    }
    return new SimulationData(source.name(), new SourceClients(source, model),
        forModel(source.test(), model));
  }

  /**
   * Whether the clients' data are made or read when asked for rather than held (a generated
   * population, or the user's data).
   */
  public boolean generated() {
    return clientTrain instanceof GeneratedClients || clientTrain instanceof SourceClients;
  }

  /** A source's clients read on demand; an element is never stored. */
  private static final class SourceClients extends AbstractList<Dataset>
      implements RandomAccess {
    private final FederatedSource source;
    private final ModelKind model;

    SourceClients(FederatedSource source, ModelKind model) {
      this.source = source;
      this.model = model;
    }

    @Override
    public Dataset get(int index) {
      try {
        return forModel(source.checked(index), model);
      } catch (IOException e) {
        throw new UncheckedIOException(source.name() + ": client " + index + ": "
            + e.getMessage(), e);
      }
    }

    @Override
    public int size() {
      return source.clients();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SourceClients c && c.source.equals(source) && c.model == model;
    }

    @Override
    public int hashCode() {
      return Objects.hash(source, model);
    }

    @Override
    public String toString() {
      return "[" + source.clients() + " clients of " + source.name() + ", read on demand]";
    }
  }

  /** Where the settings' data are read from, as a failure to read them names it. */
  public static Path location(SimulationSettings c) {
    return switch (c.dataset()) {
      case DatasetSpec.Table s -> s.file();
      case DatasetSpec.NpzDir n -> n.dir();
      case DatasetSpec.FashionMnist f -> c.dataDir() != null ? c.dataDir()
          : FashionMnist.DEBIAN_DIR;
      default -> Path.of(c.dataset().toString());
    };
  }

  /**
   * Opens the settings' user data: reads and checks a file or directory once (the per-client
   * reads come later), or takes the source given in code.
   *
   * @throws IOException naming the file, row or field that is wrong
   * @throws IllegalStateException when the settings' data are not the user's
   */
  public static FederatedSource source(SimulationSettings c) throws IOException {
    return source(c.dataset(), c.seed());
  }

  /**
   * Opens the user's data {@code spec} names, the held-out test examples chosen from {@code
   * seed}; see {@link #source(SimulationSettings)}.
   *
   * @throws IOException naming the file, row or field that is wrong
   * @throws IllegalStateException when {@code spec} is not the user's data
   */
  public static FederatedSource source(DatasetSpec spec, long seed) throws IOException {
    return switch (spec) {
      case DatasetSpec.Csv s -> CsvClients.builder(s.file()).clientColumn(s.clientColumn())
          .labelColumn(s.labelColumn()).featureColumns(s.featureColumns())
          .testFraction(s.testFraction()).seed(seed)
          .maxClients(SimulationSettings.MAX_CLIENTS).open();
      case DatasetSpec.Parquet s -> ParquetClients.builder(s.file())
          .clientColumn(s.clientColumn()).labelColumn(s.labelColumn())
          .featureColumns(s.featureColumns()).testFraction(s.testFraction()).seed(seed)
          .maxClients(SimulationSettings.MAX_CLIENTS).open();
      case DatasetSpec.NpzDir n -> NpzClients.open(n.dir(), 0, n.testFraction(), seed);
      case DatasetSpec.Provided p -> p.source();
      default -> throw new IllegalStateException(spec + " is not the user's data");
    };
  }

  /** Client k's data made on demand; an element is never stored. */
  private static final class GeneratedClients extends AbstractList<Dataset>
      implements RandomAccess {
    private final GeneratedPopulation population;
    private final int size;
    private final ModelKind model;

    GeneratedClients(GeneratedPopulation population, int size, ModelKind model) {
      this.population = population;
      this.size = size;
      this.model = model;
    }

    @Override
    public Dataset get(int index) {
      Objects.checkIndex(index, size);
      return forModel(population.client(index), model);
    }

    @Override
    public int size() {
      return size;
    }

    // A list's equality, hash and text read every element: for millions of generated clients,
    // use what makes them instead.
    @Override
    public boolean equals(Object o) {
      return o instanceof GeneratedClients g && g.population.equals(population) && g.size == size
          && g.model == model;
    }

    @Override
    public int hashCode() {
      return Objects.hash(population, size, model);
    }

    @Override
    public String toString() {
      return "[" + size + " clients of " + population + ", made on demand]";
    }
  }

  /** The shape of one example's features. */
  public long[] exampleShape() {
    return test.exampleShape();
  }

  /** The number of classes. */
  public int numClasses() {
    return test.numClasses();
  }

  /**
   * Loads and splits the data the settings name; every random choice derives from the seed.
   *
   * @throws IOException when file-based data cannot be read
   * @throws IllegalArgumentException when the data cannot be split as asked, for example more
   *     shards than examples
   */
  public static SimulationData load(SimulationSettings c) throws IOException {
    long seed = c.seed();
    return switch (c.dataset()) {
      case DatasetSpec.Digits d -> pooled(Digits.load(TEST_FRACTION, seed), c);
      case DatasetSpec.FashionMnist f -> pooled(c.dataDir() == null ? FashionMnist.load()
          : FashionMnist.load(c.dataDir()), c);
      case DatasetSpec.Synthetic s -> byDevice(
          Synthetic.fedProx(s.alpha(), s.beta(), seed, syntheticConfig(c)), c);
      case DatasetSpec.SyntheticIid s -> byDevice(Synthetic.iid(seed, syntheticConfig(c)), c);
      case DatasetSpec.Generated g -> generated(population(g, seed), c.clients(), c.model());
      case DatasetSpec.Table s -> of(source(c), c.clients(), c.model());
      case DatasetSpec.NpzDir n -> of(source(c), c.clients(), c.model());
      case DatasetSpec.Provided p -> of(p.source(), c.clients(), c.model());
    };
  }

  /** The generator of {@code spec}'s data from the run's seed. */
  public static GeneratedPopulation population(DatasetSpec.Generated spec, long seed) {
    return new GeneratedPopulation(spec.features(), spec.classes(), spec.examples(), seed);
  }

  private static Synthetic.Config syntheticConfig(SimulationSettings c) {
    Synthetic.Config d = Synthetic.Config.DEFAULT;
    return new Synthetic.Config(c.clients(), d.dimension(), d.numClasses(), d.maxTotalSamples());
  }

  private static SimulationData pooled(TrainTestSplit split, SimulationSettings c) {
    Dataset train = forModel(split.train(), c.model());
    Dataset test = forModel(split.test(), c.model());
    Partitioner partitioner = Partitioner.parse(c.partition());
    Partition partition = partitioner.partition(train, c.clients(), c.seed());
    return new SimulationData(train.name(), partition.apply(train), test);
  }

  private static SimulationData byDevice(FederatedDataset fed, SimulationSettings c) {
    List<Dataset> train = fed.train().stream().map(d -> forModel(d, c.model())).toList();
    return new SimulationData(fed.name(), train, forModel(fed.pooledTest(), c.model()));
  }

  /** The CNN reads images as NHWC [N, 28, 28, 1]; flat 784-pixel rows are viewed that way. */
  public static Dataset forModel(Dataset d, ModelKind model) {
    if (model != ModelKind.CNN || d.exampleShape().length != 1
        || d.featuresPerExample() != 28 * 28) {
      return d;
    }
    return new Dataset(d.name(), d.features().reshape(d.size(), 28, 28, 1), d.labels(),
        d.numClasses());
  }
}
