package io.tributary.simulation;

import io.tributary.graph.local.ClientOptimizer;
import io.tributary.learning.MetricAggregation;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpSettings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * The settings a cluster engine's worker needs to rebuild a simulation, as bytes: every setting
 * that decides a client's data or work, field by field in a fixed order (doubles as their bits),
 * so that the worker's settings equal the driver's. The output directory and the engine are not
 * sent (a worker writes nothing and runs locally).
 */
public final class SettingsCodec {
  /** The first bytes of every encoding; a change of layout changes them. */
  private static final int MAGIC = 0x54534532; // "TSE2"

  private SettingsCodec() {}

  /**
   * Encodes {@code s}.
   *
   * @throws IllegalArgumentException when a setting cannot be sent to workers: an algorithm
   *     composed in code ({@code Algorithm.custom}), or differential privacy over SecAgg+ (a
   *     secure sum runs among the clients of one process)
   */
  public static byte[] encode(SimulationSettings s) {
    if (s.algorithm().custom().isPresent()) {
      throw new IllegalArgumentException("an algorithm composed in code (Algorithm.custom) "
          + "cannot run on a cluster engine: its workers rebuild the algorithm from the settings, "
          + "which only name the suite's algorithms; use --engine local");
    }
    if (s.dp().flatMap(DpSettings::secure).isPresent()) {
      throw new IllegalArgumentException("--secure-aggregation does not run on a cluster "
          + "engine: SecAgg+ needs every client of a round in one process; use --engine local");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeUTF(s.algorithm().cliName());
      writeMap(out, s.algorithm().hyperparameters());
      writeDataset(out, s.dataset());
      out.writeUTF(s.dataDir() == null ? "" : s.dataDir().toString());
      out.writeUTF(s.partition());
      out.writeUTF(s.model().cliName());
      for (int v : new int[] {s.clients(), s.clientsPerRound(), s.rounds(), s.localEpochs(),
          s.batchSize(), s.threads(), s.checkpointEvery()}) {
        out.writeInt(v);
      }
      out.writeDouble(s.learningRate());
      out.writeDouble(s.mu());
      out.writeInt(s.byzantine().clients());
      writeMode(out, s.byzantine().mode());
      out.writeLong(s.seed());
      out.writeUTF(s.clientOptimizer().name());
      writeMap(out, s.clientOptimizer().hyperparameters());
      out.writeInt(s.clientMetrics().size());
      for (var e : s.clientMetrics().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue().name());
      }
      writeDp(out, s.dp());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Decodes what {@link #encode} wrote: the settings, without an output directory, on {@link
   * Engine#LOCAL}.
   *
   * @throws IllegalArgumentException when the bytes are not an encoding of settings
   */
  public static SimulationSettings decode(byte[] encoded) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException("not encoded simulation settings (or another "
            + "version's: the driver and the workers must run the same Tributary)");
      }
      Algorithm algorithm = Algorithm.of(in.readUTF(), readMap(in));
      DatasetSpec dataset = readDataset(in);
      String dir = in.readUTF();
      String partition = in.readUTF();
      ModelKind model = ModelKind.parse(in.readUTF());
      int[] ints = new int[7];
      for (int i = 0; i < ints.length; i++) {
        ints[i] = in.readInt();
      }
      double lr = in.readDouble();
      double mu = in.readDouble();
      Byzantine byzantine = new Byzantine(in.readInt(), readMode(in));
      long seed = in.readLong();
      ClientOptimizer optimizer = ClientOptimizer.of(in.readUTF(), readMap(in));
      SequencedMap<String, MetricAggregation> metrics = new TreeMap<>();
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        metrics.put(in.readUTF(), MetricAggregation.valueOf(in.readUTF()));
      }
      Optional<DpSettings> dp = readDp(in);
      return new SimulationSettings(algorithm, dataset, dir.isEmpty() ? null : Path.of(dir),
          partition, model, ints[0], ints[1], ints[2], ints[3], ints[4], lr, mu, byzantine,
          seed, ints[5], ints[6], null, dp, optimizer, metrics, Engine.LOCAL);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated simulation settings: " + e.getMessage(), e);
    }
  }

  /** Differential privacy's settings, every field (the workers build the clients' clipping). */
  private static void writeDp(DataOutputStream out, Optional<DpSettings> dp) throws IOException {
    out.writeBoolean(dp.isPresent());
    if (dp.isEmpty()) {
      return;
    }
    DpSettings d = dp.get();
    out.writeUTF(d.mode().name());
    out.writeDouble(d.noiseMultiplier());
    out.writeDouble(d.clip());
    out.writeBoolean(d.adaptive().isPresent());
    if (d.adaptive().isPresent()) {
      DpSettings.Adaptive a = d.adaptive().get();
      out.writeDouble(a.targetQuantile());
      out.writeDouble(a.clipLr());
      out.writeBoolean(a.clippedCountStddev().isPresent());
      out.writeDouble(a.clippedCountStddev().orElse(0));
    }
    out.writeDouble(d.localNoiseStddev());
    out.writeDouble(d.delta());
    out.writeBoolean(d.insecureSeededNoise());
  }

  private static Optional<DpSettings> readDp(DataInputStream in) throws IOException {
    if (!in.readBoolean()) {
      return Optional.empty();
    }
    DpMode mode = DpMode.valueOf(in.readUTF());
    double z = in.readDouble();
    double clip = in.readDouble();
    Optional<DpSettings.Adaptive> adaptive = Optional.empty();
    if (in.readBoolean()) {
      double quantile = in.readDouble();
      double clipLr = in.readDouble();
      boolean hasStddev = in.readBoolean();
      double stddev = in.readDouble();
      adaptive = Optional.of(new DpSettings.Adaptive(quantile, clipLr,
          hasStddev ? OptionalDouble.of(stddev) : OptionalDouble.empty()));
    }
    return Optional.of(new DpSettings(mode, z, clip, adaptive, in.readDouble(), in.readDouble(),
        in.readBoolean()));
  }

  private static void writeMap(DataOutputStream out, Map<String, Double> m) throws IOException {
    out.writeInt(m.size());
    for (var e : m.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeDouble(e.getValue());
    }
  }

  private static SequencedMap<String, Double> readMap(DataInputStream in) throws IOException {
    SequencedMap<String, Double> m = new LinkedHashMap<>();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      m.put(in.readUTF(), in.readDouble());
    }
    return m;
  }

  private static void writeDataset(DataOutputStream out, DatasetSpec d) throws IOException {
    switch (d) {
      case DatasetSpec.Digits x -> out.writeByte(0);
      case DatasetSpec.Synthetic x -> {
        out.writeByte(1);
        out.writeDouble(x.alpha());
        out.writeDouble(x.beta());
      }
      case DatasetSpec.SyntheticIid x -> out.writeByte(2);
      case DatasetSpec.FashionMnist x -> out.writeByte(3);
      case DatasetSpec.Generated x -> {
        out.writeByte(4);
        out.writeInt(x.features());
        out.writeInt(x.classes());
        out.writeInt(x.examples());
      }
    }
  }

  private static DatasetSpec readDataset(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> new DatasetSpec.Digits();
      case 1 -> new DatasetSpec.Synthetic(in.readDouble(), in.readDouble());
      case 2 -> new DatasetSpec.SyntheticIid();
      case 3 -> new DatasetSpec.FashionMnist();
      case 4 -> new DatasetSpec.Generated(in.readInt(), in.readInt(), in.readInt());
      default -> throw new IllegalArgumentException("unknown dataset tag " + tag);
    };
  }

  private static void writeMode(DataOutputStream out, Byzantine.Mode m) throws IOException {
    switch (m) {
      case Byzantine.Mode.Scale x -> {
        out.writeByte(0);
        out.writeDouble(x.factor());
      }
      case Byzantine.Mode.SignFlip x -> out.writeByte(1);
      case Byzantine.Mode.Noise x -> {
        out.writeByte(2);
        out.writeDouble(x.standardDeviation());
      }
    }
  }

  private static Byzantine.Mode readMode(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> new Byzantine.Mode.Scale(in.readDouble());
      case 1 -> new Byzantine.Mode.SignFlip();
      case 2 -> new Byzantine.Mode.Noise(in.readDouble());
      default -> throw new IllegalArgumentException("unknown Byzantine mode tag " + tag);
    };
  }
}
