package io.tributary.simulation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.learning.MetricAggregation;
import io.tributary.learning.SettingException;
import io.tributary.learning.json.Json;
import io.tributary.privacy.aggregation.DpSettings;
import io.tributary.learning.rounds.output.RunIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.function.Function;

/**
 * The one schema of a simulation's settings: every key of {@code config.json}, written once, with
 * how its value is written from {@link SimulationSettings} and read back into a {@link
 * SimulationSettings.Builder}, and whether it changes results. {@code config.json} is the
 * settings' persisted form: what a run records, what a cluster engine's workers receive and what
 * a resumed run reads; nothing re-parses a command line.
 *
 * <p>A new setting is one {@link Setting} here plus its use; {@code simulate --set KEY=VALUE}
 * sets any key from the command line.
 */
public final class SettingsSchema {
  /** The layout version {@code config.json} records as {@code config_version}. */
  public static final int VERSION = 1;
  /** The largest {@code config.json} read: settings are a few hundred bytes. */
  public static final int MAX_BYTES = 1 << 20;

  private SettingsSchema() {}

  /**
   * One key of {@code config.json}.
   *
   * @param name the key, in snake case
   * @param changesResults whether a run with another value computes other bits (the thread count,
   *     the output directory and the engine do not)
   * @param write the value as JSON text, or empty when the key is left out for these settings
   * @param read sets the builder from the key's value ({@code null} when the file leaves it out)
   */
  record Key(String name, boolean changesResults,
      Function<SimulationSettings, Optional<String>> write, Reader read) {}

  /** Reads one key's value into a builder. */
  @FunctionalInterface
  interface Reader {
    /**
     * Sets {@code b} from {@code value}, which is null when the file leaves the key out.
     *
     * @throws IllegalArgumentException when the value is not one the key takes
     */
    void read(JsonNode value, JsonNode config, SimulationSettings.Builder b);
  }

  private static final Reader DERIVED = (v, c, b) -> { };

  /**
   * A setting beyond the classic ones of {@link SimulationSettings}' components: declared here
   * once, read with {@link SimulationSettings#get}, set with {@link
   * SimulationSettings.Builder#set(Setting, Object)} or {@code --set NAME=VALUE}, written to
   * {@code config.json}, sent to a cluster's workers and compared on resume by the schema alone.
   * Written only when it differs from its default: a {@code config.json} without it means the
   * default.
   *
   * @param <T> the value's type
   */
  public static final class Setting<T> {
    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final boolean changesResults;
    private final Function<JsonNode, T> parse;
    private final Function<T, String> json;
    private final Function<T, Optional<String>> problem;
    private final String description;

    private Setting(String name, Class<T> type, T defaultValue, boolean changesResults,
        Function<JsonNode, T> parse, Function<T, String> json,
        Function<T, Optional<String>> problem, String description) {
      this.name = name;
      this.type = type;
      this.defaultValue = defaultValue;
      this.changesResults = changesResults;
      this.parse = parse;
      this.json = json;
      this.problem = problem;
      this.description = description;
    }

    /** The key, in snake case; the library and {@code --set} name it so too. */
    public String name() {
      return name;
    }

    /** The value's class. */
    public Class<T> type() {
      return type;
    }

    /** The value when none is given. */
    public T defaultValue() {
      return defaultValue;
    }

    /** Whether another value computes other bits. */
    public boolean changesResults() {
      return changesResults;
    }

    /** One line for the help and the docs. */
    public String description() {
      return description;
    }

    /** A value as JSON text. */
    String json(T value) {
      return json.apply(value);
    }

    @Override
    public String toString() {
      return name;
    }

    /** A whole-number setting in {@code [min, max]}. */
    static Setting<Integer> whole(String name, int defaultValue, int min, int max,
        boolean changesResults, String description) {
      return new Setting<>(name, Integer.class, defaultValue, changesResults,
          SettingsSchema::integer, v -> Integer.toString(v),
          v -> v < min || v > max ? Optional.of("must be in [" + min + ", " + max + "], got " + v)
              : Optional.empty(), description);
    }

    /**
     * {@code value} checked.
     *
     * @throws SettingException naming this setting when the value is not one it takes
     */
    public T check(Object value) {
      T v = type.cast(value);
      Optional<String> wrong = problem.apply(v);
      if (wrong.isPresent()) {
        throw new SettingException(name, "{" + name + "} " + wrong.get());
      }
      return v;
    }

    /** The value {@code s} has, as JSON text. */
    public String text(SimulationSettings s) {
      return json.apply(s.get(this));
    }

    Key key() {
      // Written only when not the default, so that the files of runs that leave it stay as
      // they were (and a file without it means the default).
      return new Key(name, changesResults, s -> s.others().containsKey(name)
          ? Optional.of(text(s)) : Optional.empty(), (v, c, b) -> {
        if (v != null) {
          b.set(this, parse.apply(v));
        }
      });
    }
  }

  /**
   * How often a round scores the new model on every client's training data ({@code
   * train_loss}, {@code train_accuracy}): every round by default; with N, rounds N, 2N, ... and
   * the last, the others leaving those figures out. Scoring a large population's training data
   * costs about as much as training it, so a long run at scale may want it rarely.
   */
  public static final Setting<Integer> TRAIN_EVAL_EVERY = Setting.whole("train_eval_every", 1, 1,
      SimulationSettings.MAX_ROUNDS, true, "rounds between scores of the training data");

  /**
   * The matrix kernel products run on ({@link GemmKernel}): {@code java}, the default, whose
   * results are the same bits with or without the Vector API, or {@code openblas}, whose last
   * digits differ. Always recorded, since it decides the last digits.
   */
  public static final Setting<String> KERNEL = new Setting<>("kernel", String.class, "java", true,
      SettingsSchema::text, Json::string, v -> v.equals("java") || v.equals("openblas")
          ? Optional.empty() : Optional.of("must be java or openblas, got '" + v + "'"),
      "the matrix kernel: java or openblas");

  /**
   * Where a private hierarchical run adds its noise ({@code --dp-at}, {@link
   * io.tributary.privacy.aggregation.TieredDp.NoiseAt}): {@code server}, the default, or {@code
   * edges}; recorded when not the default.
   */
  public static final Setting<String> DP_AT = new Setting<>("dp_at", String.class, "server",
      true, SettingsSchema::text, Json::string, v -> v.equals("server") || v.equals("edges")
          ? Optional.empty() : Optional.of("must be server or edges, got '" + v + "'"),
      "where a private hierarchical run adds its noise: server or edges");

  /**
   * The user's model file ({@code --model PATH.zip}, {@link SimulationSettings.Builder#model(
   * Path)}): an ADR-0001 {@code model.zip} whose newest tag holds the graph and the parameters
   * training starts from ({@link UserModel#read}), in place of a built-in model; empty for none.
   * Recorded as the path, so a resumed run and a cluster's workers read the same file.
   */
  public static final Setting<String> MODEL_FILE = new Setting<>("model_file", String.class, "",
      true, SettingsSchema::text, Json::string, v -> Optional.empty(),
      "the model file (model.zip) the clients train, in place of a built-in model");

  /**
   * The user's model built in code ({@link SimulationSettings.Builder#model(UserModel)}):
   * recorded by name only ({@code "code:NAME"}), so a resumed run must be given it again and a
   * cluster's workers cannot rebuild it.
   */
  public static final Setting<UserModel> MODEL_CODE = new Setting<>("model_code", UserModel.class,
      null, true, v -> {
        throw new IllegalArgumentException("was given in code (SimulationSettings.Builder.model), "
            + "which no file records: give the model again with Builder.model(...)");
      }, v -> v == null ? "null" : Json.string("code:" + v.model().name()),
      v -> Optional.empty(), "the model built in code the clients train");

  private static final List<Setting<?>> OTHERS = List.of(TRAIN_EVAL_EVERY, KERNEL, MODEL_FILE,
      MODEL_CODE, DP_AT);

  /** The settings beyond {@link SimulationSettings}' components, in {@code config.json}'s order. */
  public static List<Setting<?>> others() {
    return OTHERS;
  }

  /**
   * The other setting named {@code name}.
   *
   * @throws IllegalArgumentException when there is none
   */
  static Setting<?> setting(String name) {
    return OTHERS.stream().filter(o -> o.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown setting '" + name + "'"));
  }

  private static final List<Key> KEYS = List.of(
      new Key("config_version", true, s -> Optional.of(Integer.toString(VERSION)), (v, c, b) -> {
        int version = integer(v);
        if (version > VERSION) {
          throw new IllegalArgumentException("version " + version + " is newer than this "
              + "Tributary's " + VERSION + ": run it with the Tributary that wrote it");
        }
      }),
      new Key("algorithm", true, s -> Optional.of(Json.string(s.algorithm().name())),
          (v, c, b) -> b.algorithm(RunAlgorithm.named(text(v), numbers(
              c.get("algorithm_options"), "algorithm_options")))),
      new Key("algorithm_options", true, s -> RunAlgorithm.options(s.algorithm()).isEmpty()
          ? Optional.empty() : Optional.of(numberObject(RunAlgorithm.options(s.algorithm()))),
          DERIVED),
      // A composed algorithm's parts, so that resume can tell another apart.
      new Key("algorithm_parts", true, s -> RunAlgorithm.parts(s.algorithm()).isEmpty()
          ? Optional.empty() : Optional.of(stringObject(RunAlgorithm.parts(s.algorithm()),
              x -> x)), DERIVED),
      new Key("dataset", true, s -> Optional.of(Json.string(s.dataset().toString())),
          (v, c, b) -> b.dataset(datasetWithOptions(DatasetSpec.parse(text(v)),
              c.get("dataset_options")))),
      // Recorded only for the user's files, so that the files of other runs stay as they were.
      new Key("dataset_options", true, s -> s.datasetOptions().isEmpty() ? Optional.empty()
          : Optional.of(datasetOptionsJson(s.datasetOptions())), DERIVED),
      new Key("data_dir", true, s -> Optional.of(s.dataDir() == null ? "null"
          : Json.string(s.dataDir().toString())), (v, c, b) -> b.dataDir(path(v))),
      new Key("partition", true, s -> Optional.of(Json.string(s.partition())), (v, c, b) -> {
        String p = text(v);
        if (!p.equals("natural")) {
          b.partition(p);
        }
      }),
      // Left out for the user's model, which model_file or model_code records instead.
      new Key("model", true, s -> s.userModel() ? Optional.empty()
          : Optional.of(Json.string(s.model().cliName())), (v, c, b) -> {
            if (v != null || (c.get("model_file") == null && c.get("model_code") == null)) {
              b.model(ModelKind.parse(text(v)));
            }
          }),
      MODEL_FILE.key(),
      MODEL_CODE.key(),
      intKey("clients", SimulationSettings::clients, (b, x) -> b.clients(x)),
      intKey("clients_per_round", SimulationSettings::clientsPerRound,
          (b, x) -> b.clientsPerRound(x)),
      intKey("rounds", SimulationSettings::rounds, (b, x) -> b.rounds(x)),
      intKey("local_epochs", SimulationSettings::localEpochs, (b, x) -> b.localEpochs(x)),
      intKey("batch_size", SimulationSettings::batchSize, (b, x) -> b.batchSize(x)),
      new Key("lr", true, s -> Optional.of(Json.number(s.learningRate())),
          (v, c, b) -> b.learningRate(real(v))),
      // Recorded only when not plain SGD, so that the files of SGD runs stay as they were.
      new Key("client_optimizer", true, s -> s.clientOptimizer().isSgd() ? Optional.empty()
          : Optional.of(Json.string(s.clientOptimizer().name())), (v, c, b) -> {
            if (v != null) {
              b.clientOptimizer(text(v), numbers(c.get("client_optimizer_options"),
                  "client_optimizer_options"));
            }
          }),
      new Key("client_optimizer_options", true, s -> s.clientOptimizer().isSgd()
          ? Optional.empty() : Optional.of(numberObject(s.clientOptimizer().hyperparameters())),
          DERIVED),
      new Key("client_metrics", true, s -> s.clientMetrics().isEmpty() ? Optional.empty()
          : Optional.of(stringObject(s.clientMetrics(), SimulationSettings::metricName)),
          (v, c, b) -> {
            for (var e : strings(v, "client_metrics").entrySet()) {
              b.clientMetric(e.getKey(), MetricAggregation.valueOf(
                  e.getValue().toUpperCase(Locale.ROOT)));
            }
          }),
      new Key("mu", true, s -> Optional.of(Json.number(s.mu())), (v, c, b) -> {
        double mu = real(v);
        if (b.proximal()) {
          b.mu(mu);
        } else if (mu != 0) {
          throw new IllegalArgumentException("must be 0 for an algorithm without a proximal "
              + "term, got " + mu);
        }
      }),
      new Key("byzantine", true, s -> s.byzantine().active()
          ? Optional.of(Json.string(s.byzantine().toString())) : Optional.empty(),
          (v, c, b) -> {
            if (v != null) {
              b.byzantine(Byzantine.parse(text(v)));
            }
          }),
      new Key("seed", true, s -> Optional.of(Long.toString(s.seed())),
          (v, c, b) -> b.seed(longValue(v))),
      intKey("threads", false, SimulationSettings::threads, (b, x) -> b.threads(x)),
      // Recorded only for a cluster, so that the files of local runs stay as they were.
      new Key("engine", false, s -> s.engine() instanceof Engine.Cluster cl
          ? Optional.of(Json.string(cl.master())) : Optional.empty(), (v, c, b) -> {
            if (v != null) {
              JsonNode p = c.get("partitions");
              b.engine(Engine.parse(text(v), p == null ? 0 : integer(p)));
            }
          }),
      new Key("partitions", false, s -> s.engine() instanceof Engine.Cluster cl
          ? Optional.of(Integer.toString(cl.partitions())) : Optional.empty(), DERIVED),
      // Written even at its default: what decides the last digits, so a run can be told apart.
      new Key("kernel", true, s -> Optional.of(KERNEL.text(s)), (v, c, b) -> {
        if (v != null) {
          b.set(KERNEL, text(v));
        }
      }),
      intKey("checkpoint_every", SimulationSettings::checkpointEvery,
          (b, x) -> b.checkpointEvery(x)),
      new Key("out", false, s -> Optional.of(s.out() == null ? "null"
          : Json.string(s.out().toString())), (v, c, b) -> b.out(path(v))),
      new Key("dp", true, s -> s.dp().map(d -> {
        StringBuilder o = new StringBuilder("{");
        d.describe().forEach((k, x) -> o.append(o.length() > 1 ? ", " : "")
            .append(Json.string(k)).append(": ").append(x.matches("-?[0-9].*")
                ? x : Json.string(x)));
        return o.append('}').toString();
      }), (v, c, b) -> {
        if (v != null) {
          SequencedMap<String, String> d = new LinkedHashMap<>();
          object(v, "dp").properties().forEach(e -> d.put(e.getKey(), e.getValue().asText()));
          b.dp(DpSettings.fromDescription(d));
        }
      }),
      DP_AT.key(),
      TRAIN_EVAL_EVERY.key(),
      new Key("command", false, s -> Optional.of(Json.string(s.shellCommand())), DERIVED));

  /**
   * The keys {@link SimulationSettings#commandLine()} spells with options of their own ({@code
   * --rounds 30}); every other key it writes as {@code --set KEY=VALUE}, so that a key added to
   * the schema is repeated by the recorded command without further code.
   */
  private static final java.util.Set<String> OWN_OPTIONS = java.util.Set.of("config_version",
      "algorithm", "algorithm_options", "algorithm_parts", "dataset", "dataset_options", "data_dir", "partition", "model", "model_file", "model_code", "clients",
      "clients_per_round", "rounds", "local_epochs", "batch_size", "lr", "client_optimizer",
      "client_optimizer_options", "client_metrics", "mu", "byzantine", "seed", "threads",
      "engine", "partitions", "kernel", "checkpoint_every", "out", "dp", "command");

  /** The {@code --set KEY=VALUE} words of the keys that have no option of their own. */
  static List<String> setWords(SimulationSettings s) {
    List<String> words = new ArrayList<>();
    for (Key k : KEYS) {
      if (!OWN_OPTIONS.contains(k.name())) {
        k.write().apply(s).ifPresent(v -> words.addAll(List.of("--set", k.name() + "=" + v)));
      }
    }
    return words;
  }

  /**
   * The {@code config.json} key of a setting named as the library names it: {@code
   * clientsPerRound} is {@code clients_per_round}, {@code learningRate} is {@code lr}, a client
   * optimizer's {@code clientOptimizer.beta1} is {@code client_optimizer_options.beta1}.
   */
  public static String keyOf(String setting) {
    if (setting.startsWith("clientOptimizer.")) {
      return "client_optimizer_options." + setting.substring("clientOptimizer.".length());
    }
    if (setting.equals("learningRate")) {
      return "lr";
    }
    return setting.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }

  /** Every key, in the order {@code config.json} lists them. */
  static List<Key> keys() {
    return KEYS;
  }

  /** The key named {@code name}, if the schema has one. */
  static Optional<Key> key(String name) {
    return KEYS.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /** {@code s} as {@code config.json}: one key per line, in the schema's order. */
  static String write(SimulationSettings s) {
    StringBuilder out = new StringBuilder("{\n");
    List<String> lines = new ArrayList<>();
    for (Key k : KEYS) {
      k.write().apply(s).ifPresent(v -> lines.add("  " + Json.string(k.name()) + ": " + v));
    }
    return out.append(String.join(",\n", lines)).append("\n}\n").toString();
  }

  /**
   * The settings {@code config.json} holds, validated as {@link SimulationSettings.Builder#build}
   * validates them.
   *
   * @throws SettingsFileException naming the key whose value is missing, unknown or wrong, or
   *     saying that the text is not a JSON object
   */
  static SimulationSettings read(String json) throws SettingsFileException {
    JsonNode config = parseObject(json);
    SimulationSettings.Builder b = SimulationSettings.builder();
    for (Key k : KEYS) {
      try {
        k.read().read(config.get(k.name()), config, b);
      } catch (IllegalArgumentException e) {
        throw new SettingsFileException(k.name(), e.getMessage());
      }
    }
    try {
      return b.build();
    } catch (SettingException e) {
      // "clients_per_round must be ..." reads "config.json: clients_per_round must be ...".
      String key = keyOf(e.setting());
      String text = e.render(SettingsSchema::keyOf);
      String rest = text.startsWith(key) ? text.substring(key.length()) : " " + text;
      throw new SettingsFileException(key, rest.startsWith(": ") ? rest.substring(2)
          : rest.strip());
    } catch (IllegalArgumentException e) {
      throw new SettingsFileException(null, "holds settings that do not go together: "
          + e.getMessage());
    }
  }

  /**
   * Sets {@code b} from {@code entries}, keys of the schema with their values as JSON text (a
   * value that is not JSON is taken as a string: {@code dataset=digits}), as {@code simulate --set
   * KEY=VALUE} does. Keys read together are set together: {@code algorithm_options} with {@code
   * algorithm}, {@code client_optimizer_options} with {@code client_optimizer}, {@code
   * partitions} with {@code engine}.
   *
   * @throws IllegalArgumentException naming the key that is unknown, not a setting, or whose
   *     value is wrong
   */
  static void apply(Map<String, String> entries, SimulationSettings.Builder b) {
    com.fasterxml.jackson.databind.node.ObjectNode config = Mapper.MAPPER.createObjectNode();
    for (var e : entries.entrySet()) {
      String name = e.getKey();
      Key k = key(name).orElseThrow(() -> new IllegalArgumentException("unknown setting '"
          + clip(name) + "'; the settings are the keys of config.json: " + String.join(", ",
              KEYS.stream().filter(x -> x.read() != DERIVED && x != KEYS.get(0))
                  .map(Key::name).toList())));
      String with = switch (name) {
        case "algorithm_options" -> "algorithm";
        case "dataset_options" -> "dataset";
        case "client_optimizer_options" -> "client_optimizer";
        case "partitions" -> "engine";
        default -> null;
      };
      if (with != null && !entries.containsKey(with)) {
        throw new IllegalArgumentException(name + " is set together with " + with);
      }
      if (k.read() == DERIVED && with == null || k == KEYS.get(0)) {
        throw new IllegalArgumentException(name + " is recorded, not set");
      }
      JsonNode v;
      try {
        v = Mapper.MAPPER.readTree(e.getValue());
      } catch (JsonProcessingException ex) {
        v = null;
      }
      config.set(name, v == null || v.isMissingNode()
          ? com.fasterxml.jackson.databind.node.TextNode.valueOf(e.getValue()) : v);
    }
    for (Key k : KEYS) {
      if (config.has(k.name())) {
        try {
          k.read().read(config.get(k.name()), config, b);
        } catch (IllegalArgumentException ex) {
          throw new IllegalArgumentException(k.name() + " " + ex.getMessage(), ex);
        }
      }
    }
  }

  /**
   * {@code spec} with the options {@code config.json}'s {@code dataset_options} holds: a CSV
   * file's columns and test fraction, a directory's test fraction.
   *
   * @throws IllegalArgumentException naming an option that is unknown, wrong or not applicable
   */
  static DatasetSpec datasetWithOptions(DatasetSpec spec, JsonNode options) {
    if (options == null) {
      return spec;
    }
    Map<String, JsonNode> given = new LinkedHashMap<>();
    object(options, "dataset_options").properties().forEach(e -> given.put(e.getKey(),
        e.getValue()));
    java.util.Set<String> known = switch (spec) {
      case DatasetSpec.Table c -> java.util.Set.of("client_column", "label_column",
          "feature_columns", "test_fraction");
      case DatasetSpec.NpzDir n -> java.util.Set.of("test_fraction");
      default -> java.util.Set.of();
    };
    for (String k : given.keySet()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("dataset_options." + k + " does not apply to "
            + spec);
      }
    }
    try {
      double fraction = given.containsKey("test_fraction") ? real(given.get("test_fraction"))
          : DatasetSpec.DEFAULT_TEST_FRACTION;
      return switch (spec) {
        case DatasetSpec.Table c -> c.withColumns(
            given.containsKey("client_column") ? text(given.get("client_column"))
                : c.clientColumn(),
            given.containsKey("label_column") ? text(given.get("label_column"))
                : c.labelColumn(),
            given.containsKey("feature_columns") ? columns(given.get("feature_columns"))
                : c.featureColumns()).withTestFraction(fraction);
        case DatasetSpec.NpzDir n -> new DatasetSpec.NpzDir(n.dir(), fraction);
        default -> spec;
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("dataset_options: " + e.getMessage(), e);
    }
  }

  /** A comma-separated list or a JSON array of column names. */
  private static List<String> columns(JsonNode v) {
    if (present(v).isArray()) {
      List<String> out = new ArrayList<>();
      v.forEach(x -> out.add(text(x)));
      return out;
    }
    return List.of(text(v).split(",", -1)).stream().map(String::strip).toList();
  }

  private static String datasetOptionsJson(SequencedMap<String, String> options) {
    StringBuilder o = new StringBuilder("{");
    options.forEach((k, v) -> {
      o.append(o.length() > 1 ? ", " : "").append(Json.string(k)).append(": ");
      switch (k) {
        case "test_fraction" -> o.append(v);
        case "feature_columns" -> o.append('[').append(String.join(", ",
            List.of(v.split(",", -1)).stream().map(Json::string).toList())).append(']');
        default -> o.append(Json.string(v));
      }
    });
    return o.append('}').toString();
  }

  private static String clip(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  /**
   * Checks that {@code given} are the settings {@code recorded} (a run's {@code config.json})
   * holds, key by key, except for the keys that do not change results.
   *
   * @throws SettingsFileException when {@code recorded} is not a settings file of this Tributary
   * @throws IllegalArgumentException naming the first key whose value differs, with both values
   */
  /**
   * The identity of a run with settings {@code s}, which its checkpoints record: every key that
   * changes results but the seed (a setting of {@link #others} at its default when left out),
   * and the seed. A resume refuses a checkpoint with another identity, naming what differs.
   */
  public static RunIdentity identity(SimulationSettings s) {
    java.util.SequencedMap<String, String> settings = new java.util.LinkedHashMap<>();
    for (Key k : KEYS) {
      if (!k.changesResults() || k.name().equals("seed")) {
        continue;
      }
      Optional<String> v = k.write().apply(s);
      Optional<Setting<?>> other = OTHERS.stream().filter(o -> o.name().equals(k.name()))
          .findFirst();
      if (v.isEmpty() && other.isPresent()) {
        v = Optional.of(defaultText(other.get()));
      }
      settings.put(k.name(), v.orElse("(not set)"));
    }
    return new RunIdentity("simulate", settings, s.seed());
  }

  static void checkSame(String recorded, SimulationSettings given, Path where)
      throws SettingsFileException {
    checkSame(recorded, given, "the run in " + where);
  }

  /** As {@link #checkSame(String, SimulationSettings, Path)}, the run described by {@code run}. */
  static void checkSame(String recorded, SimulationSettings given, String run)
      throws SettingsFileException {
    JsonNode theirs = parseObject(recorded);
    for (Key k : KEYS) {
      if (!k.changesResults()) {
        continue;
      }
      JsonNode mine = k.write().apply(given).map(SettingsSchema::parseValue).orElse(null);
      JsonNode old = theirs.get(k.name());
      Optional<Setting<?>> other = OTHERS.stream().filter(o -> o.name().equals(k.name()))
          .findFirst();
      if (other.isPresent()) {
        // Left out at its default (or written before the setting existed): the default.
        JsonNode byDefault = parseValue(defaultText(other.get()));
        mine = mine == null ? byDefault : mine;
        old = old == null ? byDefault : old;
      }
      if (!java.util.Objects.equals(mine, old) && mine != null && old != null
          && mine.isObject() && old.isObject()) {
        // Name the part that differs: algorithm_parts.aggregator, dataset_options.label_column.
        java.util.Set<String> names = new java.util.TreeSet<>();
        mine.fieldNames().forEachRemaining(names::add);
        old.fieldNames().forEachRemaining(names::add);
        for (String f : names) {
          if (!java.util.Objects.equals(mine.get(f), old.get(f))) {
            throw new IllegalArgumentException("resume: " + k.name() + "." + f + " "
                + show(mine.get(f)) + " differs from " + run + ", which has "
                + k.name() + "." + f + " " + show(old.get(f)) + " (resume with the run's "
                + "settings, or start a new run)");
          }
        }
      }
      if (!java.util.Objects.equals(mine, old)) {
        throw new IllegalArgumentException("resume: " + k.name() + " " + show(mine)
            + " differs from " + run + ", which has " + k.name() + " " + show(old)
            + " (resume with the run's settings, or start a new run)");
      }
    }
  }

  private static <T> String defaultText(Setting<T> o) {
    return o.json(o.defaultValue());
  }

  private static String show(JsonNode v) {
    return v == null ? "(not set)" : v.toString();
  }

  private static JsonNode parseValue(String json) {
    try {
      return Mapper.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the schema wrote a value that is not JSON: " + json, e);
    }
  }

  /** The file's object, its keys checked against the schema and its version against ours. */
  private static JsonNode parseObject(String json) throws SettingsFileException {
    JsonNode config;
    try {
      config = Mapper.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new SettingsFileException(null, "is not JSON: "
          + e.getOriginalMessage().replaceAll("\\R", " "));
    }
    if (config == null || !config.isObject()) {
      throw new SettingsFileException(null, "is not a JSON object");
    }
    for (var e : config.properties()) {
      if (key(e.getKey()).isEmpty()) {
        throw new SettingsFileException(e.getKey(), "is not a key of this Tributary's settings "
            + "(a newer Tributary's, or edited by hand)");
      }
    }
    if (config.get("config_version") == null) {
      throw new SettingsFileException("config_version", "is missing");
    }
    try {
      KEYS.get(0).read().read(config.get("config_version"), config, SimulationSettings.builder());
    } catch (IllegalArgumentException e) {
      throw new SettingsFileException("config_version", e.getMessage());
    }
    return config;
  }

  /**
   * The JSON reader, made when a run first reads settings ({@code --resume}, {@code --set}, a
   * cluster worker): building a mapper loads some 300 classes, which a run that only writes its
   * {@code config.json} (every fresh {@code simulate}) would pay for at start-up for nothing.
   */
  private static final class Mapper {
    static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8)
            .maxStringLength(MAX_BYTES).build()).build())
        .build();

    private Mapper() {}
  }

  private static Key intKey(String name, Function<SimulationSettings, Integer> get,
      java.util.function.ObjIntConsumer<SimulationSettings.Builder> set) {
    return intKey(name, true, get, set);
  }

  private static Key intKey(String name, boolean changesResults,
      Function<SimulationSettings, Integer> get,
      java.util.function.ObjIntConsumer<SimulationSettings.Builder> set) {
    return new Key(name, changesResults, s -> Optional.of(Integer.toString(get.apply(s))),
        (v, c, b) -> set.accept(b, integer(v)));
  }

  private static JsonNode present(JsonNode v) {
    if (v == null) {
      throw new IllegalArgumentException("is missing");
    }
    return v;
  }

  private static String text(JsonNode v) {
    if (!present(v).isTextual()) {
      throw new IllegalArgumentException("must be a string, got " + v);
    }
    return v.textValue();
  }

  private static Path path(JsonNode v) {
    return present(v).isNull() ? null : Path.of(text(v));
  }

  private static int integer(JsonNode v) {
    if (!present(v).isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException("must be a 32-bit integer, got " + v);
    }
    return v.intValue();
  }

  private static long longValue(JsonNode v) {
    if (!present(v).isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("must be a 64-bit integer, got " + v);
    }
    return v.longValue();
  }

  private static double real(JsonNode v) {
    if (present(v).isNumber()) {
      return v.doubleValue();
    }
    if (v.isTextual()) {
      switch (v.textValue()) {
        case "NaN" -> {
          return Double.NaN;
        }
        case "Infinity" -> {
          return Double.POSITIVE_INFINITY;
        }
        case "-Infinity" -> {
          return Double.NEGATIVE_INFINITY;
        }
        default -> { }
      }
    }
    throw new IllegalArgumentException("must be a number, got " + v);
  }

  private static JsonNode object(JsonNode v, String name) {
    if (!present(v).isObject()) {
      throw new IllegalArgumentException(name + " must be an object, got " + v);
    }
    return v;
  }

  private static Map<String, Double> numbers(JsonNode v, String name) {
    Map<String, Double> m = new LinkedHashMap<>();
    if (v != null) {
      object(v, name).properties().forEach(e -> {
        try {
          m.put(e.getKey(), real(e.getValue()));
        } catch (IllegalArgumentException ex) {
          throw new IllegalArgumentException(name + "." + e.getKey() + " " + ex.getMessage());
        }
      });
    }
    return m;
  }

  private static Map<String, String> strings(JsonNode v, String name) {
    Map<String, String> m = new LinkedHashMap<>();
    if (v != null) {
      object(v, name).properties().forEach(e -> m.put(e.getKey(), text(e.getValue())));
    }
    return m;
  }

  private static String numberObject(Map<String, Double> m) {
    StringBuilder o = new StringBuilder("{");
    m.forEach((k, v) -> o.append(o.length() > 1 ? ", " : "").append(Json.string(k))
        .append(": ").append(Json.number(v)));
    return o.append('}').toString();
  }

  private static <V> String stringObject(Map<String, V> m, Function<V, String> show) {
    StringBuilder o = new StringBuilder("{");
    m.forEach((k, v) -> o.append(o.length() > 1 ? ", " : "").append(Json.string(k))
        .append(": ").append(Json.string(show.apply(v))));
    return o.append('}').toString();
  }
}
