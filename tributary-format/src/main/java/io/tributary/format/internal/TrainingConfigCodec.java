package io.tributary.format.internal;

import com.google.flatbuffers.FlatBufferBuilder;
import io.tributary.format.FlatBufferVerificationException;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelFormatException;
import io.tributary.format.TrainingConfig;
import io.tributary.format.internal.fb.Hyperparameter;
import io.tributary.format.internal.fb.Property;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/** Encodes and decodes {@code trainingConfig.fb}: a FlatBuffer {@code TrainingConfig}, identifier {@code TRTC}. */
public final class TrainingConfigCodec {
  /** The file identifier. */
  public static final String IDENTIFIER = "TRTC";

  private TrainingConfigCodec() {}

  /** The entry's bytes for {@code c}. */
  public static byte[] encode(TrainingConfig c) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int[] hps = new int[c.hyperparameters().size()];
    int i = 0;
    for (Map.Entry<String, Double> e : c.hyperparameters().entrySet()) {
      hps[i++] = Hyperparameter.createHyperparameter(b, b.createString(e.getKey()), e.getValue());
    }
    int[] props = new int[c.properties().size()];
    i = 0;
    for (Map.Entry<String, String> e : c.properties().entrySet()) {
      props[i++] = Property.createProperty(b, b.createString(e.getKey()), b.createString(e.getValue()));
    }
    int hpVec = io.tributary.format.internal.fb.TrainingConfig.createHyperparametersVector(b, hps);
    int propVec = io.tributary.format.internal.fb.TrainingConfig.createPropertiesVector(b, props);
    int loss = io.tributary.format.internal.fb.TrainingConfig.createLossVariablesVector(b, strings(b, c.lossVariables()));
    int states = io.tributary.format.internal.fb.TrainingConfig.createUpdaterStateNamesVector(b,
        strings(b, c.updaterStateNames()));
    int optimizer = b.createString(c.optimizer());
    int root = io.tributary.format.internal.fb.TrainingConfig.createTrainingConfig(b, ModelFile.FORMAT_VERSION,
        optimizer, hpVec, loss, states, c.iterationCount(), c.epochCount(), c.round(), propVec);
    b.finish(root, IDENTIFIER);
    return b.sizedByteArray();
  }

  private static int[] strings(FlatBufferBuilder b, List<String> values) {
    int[] out = new int[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.createString(values.get(i));
    }
    return out;
  }

  /** Verifies and decodes the entry's bytes. */
  public static TrainingConfig decode(String entry, byte[] bytes) throws ModelFormatException {
    FlatBufferVerifier v = new FlatBufferVerifier(entry, ByteBuffer.wrap(bytes));
    int root = v.root(IDENTIFIER);
    v.scalar(root, 0, 4, "format_version");
    v.string(root, 1, "optimizer", false);
    v.tableVector(root, 2, "hyperparameters", (vv, t) -> {
      vv.string(t, 0, "hyperparameters.name", true);
      vv.scalar(t, 1, 8, "hyperparameters.value");
    }, 1);
    v.stringVector(root, 3, "loss_variables");
    v.stringVector(root, 4, "updater_state_names");
    v.scalar(root, 5, 8, "iteration_count");
    v.scalar(root, 6, 8, "epoch_count");
    v.scalar(root, 7, 8, "round");
    v.tableVector(root, 8, "properties", (vv, t) -> {
      vv.string(t, 0, "properties.key", true);
      vv.string(t, 1, "properties.value", true);
    }, 1);
    var c = io.tributary.format.internal.fb.TrainingConfig.getRootAsTrainingConfig(v.buffer());
    ArrayEntries.checkVersion(entry, c.formatVersion());
    SequencedMap<String, Double> hps = new LinkedHashMap<>();
    for (int i = 0; i < c.hyperparametersLength(); i++) {
      Hyperparameter h = c.hyperparameters(i);
      if (hps.put(h.name(), h.value()) != null) {
        throw new FlatBufferVerificationException(entry, "hyperparameter '" + h.name() + "' appears twice");
      }
    }
    SequencedMap<String, String> props = new LinkedHashMap<>();
    for (int i = 0; i < c.propertiesLength(); i++) {
      Property p = c.properties(i);
      if (props.put(p.key(), p.value()) != null) {
        throw new FlatBufferVerificationException(entry, "property '" + p.key() + "' appears twice");
      }
    }
    List<String> loss = new ArrayList<>();
    for (int i = 0; i < c.lossVariablesLength(); i++) {
      loss.add(c.lossVariables(i));
    }
    List<String> states = new ArrayList<>();
    for (int i = 0; i < c.updaterStateNamesLength(); i++) {
      states.add(c.updaterStateNames(i));
    }
    String optimizer = c.optimizer() == null ? "" : c.optimizer();
    return new TrainingConfig(optimizer, hps, loss, states, c.iterationCount(), c.epochCount(), c.round(), props);
  }
}
