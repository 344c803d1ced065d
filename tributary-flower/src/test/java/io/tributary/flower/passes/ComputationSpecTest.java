package io.tributary.flower.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Scalar;
import io.tributary.learning.FederatedAlgorithm;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The spec's keys on the wire, and a hostile server's config refused with a typed error naming
 * the key, never a crash.
 */
class ComputationSpecTest {
  private static Map<String, Object> valid() throws Exception {
    ComputationSpec spec = NodeComputationTest.sent(FederatedAlgorithm.named("fedadam",
        Map.of("eta", 0.05)));
    return new LinkedHashMap<>(NodeComputationTest.recordValues(spec.toConfig()));
  }

  private static ComputationSpecException refused(Map<String, Object> config) {
    try {
      ComputationSpec.fromConfig(config);
    } catch (ComputationSpecException e) {
      return e;
    }
    throw new AssertionError("accepted " + config);
  }

  @Test
  void toConfig_fedAdam_writesTheDocumentedKeys() throws Exception {
    ComputationSpec spec = NodeComputationTest.sent(FederatedAlgorithm.named("fedadam",
        Map.of("eta", 0.05)));

    Map<String, Scalar> c = spec.toConfig();

    assertThat(c).containsEntry("tributary.passes.version", Scalar.of(1L))
        .containsEntry("tributary.algorithm", Scalar.of("fedadam"))
        .containsEntry("tributary.algorithm.registered", Scalar.of(true))
        .containsEntry("tributary.hp.eta", Scalar.of(0.05))
        .containsEntry("tributary.model_type", Scalar.of("<float32[3],float32>"))
        .containsEntry("tributary.max_examples", Scalar.of(1_000_000L))
        .containsKeys("tributary.hp.beta_1", "tributary.hp.beta_2", "tributary.hp.tau",
            "tributary.fingerprint");
    assertThat(ComputationSpec.fromConfig(c)).isEqualTo(spec);
  }

  @Test
  void fromConfig_otherKeysOfTheFitConfig_ignored() throws Exception {
    Map<String, Object> c = valid();
    c.put("server-round", 3L);
    c.put("proximal_mu", 0.1);

    assertThat(ComputationSpec.fromConfig(c).algorithm()).isEqualTo("fedadam");
  }

  @Test
  void fromConfig_missingOrMistypedKeys_refusedNamingTheKey() throws Exception {
    for (String key : new String[] {ComputationSpec.VERSION, ComputationSpec.ALGORITHM,
        ComputationSpec.REGISTERED, ComputationSpec.MODEL_TYPE, ComputationSpec.MAX_EXAMPLES,
        ComputationSpec.FINGERPRINT}) {
      Map<String, Object> missing = valid();
      missing.remove(key);
      assertThat(refused(missing).key()).contains(key);
      assertThat(refused(missing).getMessage()).contains(key, "missing");
      Map<String, Object> mistyped = valid();
      mistyped.put(key, new byte[] {1});
      assertThat(refused(mistyped).getMessage()).startsWith(key + ": must be");
    }
  }

  @Test
  void fromConfig_hostileValues_refusedWithWhatWasWrong() throws Exception {
    Map<String, Object> c = valid();
    c.put(ComputationSpec.VERSION, 2L);
    assertThat(refused(c).getMessage()).contains("version 2, this node 1");

    c = valid();
    c.put(ComputationSpec.ALGORITHM, "x".repeat(100_000));
    assertThat(refused(c).getMessage()).contains("longer than 64");

    c = valid();
    c.put(ComputationSpec.ALGORITHM, "Robert'); DROP");
    assertThat(refused(c).key()).contains(ComputationSpec.ALGORITHM);

    c = valid();
    c.put("tributary.hp.eta", Double.NaN);
    assertThat(refused(c).getMessage()).isEqualTo("tributary.hp.eta: must be finite, got NaN");

    c = valid();
    c.put("tributary.hp.Not A Name", 1.0);
    assertThat(refused(c).getMessage()).contains("not a hyperparameter name");

    c = valid();
    for (int i = 0; i < 100; i++) {
      c.put("tributary.hp.h" + i, 1.0);
    }
    assertThat(refused(c).getMessage()).contains("more than 64 hyperparameters");

    c = valid();
    c.put(ComputationSpec.MODEL_TYPE, "<".repeat(ComputationSpec.MAX_MODEL_TYPE_CHARS));
    assertThat(refused(c).getMessage()).startsWith("tributary.model_type: not a type");

    c = valid();
    c.put(ComputationSpec.MODEL_TYPE, "<".repeat(ComputationSpec.MAX_MODEL_TYPE_CHARS + 1));
    assertThat(refused(c).getMessage()).contains("longer than 65536 characters");

    c = valid();
    c.put(ComputationSpec.MODEL_TYPE, "<int32[3]>");
    assertThat(refused(c).getMessage()).contains("tensor 0", "floating-point");

    c = valid();
    c.put(ComputationSpec.MODEL_TYPE, "<float32[?]>");
    assertThat(refused(c).getMessage()).contains("known shape");

    c = valid();
    c.put(ComputationSpec.MODEL_TYPE, "float32[3]");
    assertThat(refused(c).getMessage()).contains("not a struct");

    c = valid();
    c.put(ComputationSpec.MAX_EXAMPLES, 0L);
    assertThat(refused(c).getMessage()).contains("at least 1");

    c = valid();
    c.put(ComputationSpec.FINGERPRINT, "md5:abc");
    assertThat(refused(c).key()).contains(ComputationSpec.FINGERPRINT);

    c = valid();
    c.put(ComputationSpec.REGISTERED, false);
    assertThat(refused(c).getMessage()).contains("composed in code takes no registry");
  }

  @Test
  void algorithm_unknownNameOrHyperparameter_refusedNamingTheKey() throws Exception {
    NodeComputation node = NodeComputation.builder().build();
    Map<String, Object> c = valid();
    c.put(ComputationSpec.ALGORITHM, "fedmystery");
    assertThatThrownBy(() -> node.algorithm(ComputationSpec.fromConfig(c)))
        .isInstanceOf(ComputationSpecException.class)
        .hasMessageContaining("unknown algorithm 'fedmystery'").hasMessageContaining("fedavg");

    Map<String, Object> extra = valid();
    extra.put("tributary.hp.gamma", 1.0);
    assertThatThrownBy(() -> node.algorithm(ComputationSpec.fromConfig(extra)))
        .hasMessageStartingWith("tributary.hp.gamma: fedadam has no such hyperparameter");

    Map<String, Object> missing = valid();
    missing.remove("tributary.hp.tau");
    assertThatThrownBy(() -> node.algorithm(ComputationSpec.fromConfig(missing)))
        .hasMessageStartingWith("tributary.hp.tau: missing");

    Map<String, Object> outOfRange = valid();
    outOfRange.put("tributary.hp.beta_1", 1.5);
    assertThatThrownBy(() -> node.algorithm(ComputationSpec.fromConfig(outOfRange)))
        .isInstanceOf(ComputationSpecException.class)
        .hasMessageContaining("beta_1 must be in [0, 1), got 1.5");
  }
}
