package io.tributary.flower.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.Scalar;
import io.tributary.privacy.secagg.SecAggStage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The layout's round parameters and stage names, as a client reads them from a server. */
class SecAggFlowerTest {
  @Test
  void fromConfig_whatToConfigWrote_givesTheSameParameters() {
    SecAggFlower.Parameters p = new SecAggFlower.Parameters(3, 10, 6, 4, 16, 20, 0.5, -7);

    assertThat(SecAggFlower.Parameters.fromConfig(p.toConfig())).isEqualTo(p);
    assertThat(p.settings().inputBits()).isEqualTo(36);
    assertThat(p.maxExamples()).isEqualTo((1L << 20) - 1);
  }

  @Test
  void fromConfig_hugeGraph_refusedBeforeAnythingIsBuilt() {
    Map<String, Scalar> c = new LinkedHashMap<>(
        new SecAggFlower.Parameters(0, 10, 6, 4, 16, 20, 0.5, 1).toConfig());
    c.put(SecAggFlower.CLIENTS, Scalar.of((long) SecAggFlower.MAX_CLIENTS));
    c.put(SecAggFlower.NEIGHBOURS, Scalar.of((long) SecAggFlower.MAX_CLIENTS - 1));
    c.put(SecAggFlower.THRESHOLD, Scalar.of((long) SecAggFlower.MAX_CLIENTS - 1));

    assertThatThrownBy(() -> SecAggFlower.Parameters.fromConfig(c))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("edges");
  }

  @Test
  void fromConfig_missingOrMistypedEntry_refusedWithItsKey() {
    Map<String, Scalar> c = new LinkedHashMap<>(
        new SecAggFlower.Parameters(0, 10, 6, 4, 16, 20, 0.5, 1).toConfig());
    c.put(SecAggFlower.CLIP, Scalar.of("wide"));

    assertThatThrownBy(() -> SecAggFlower.Parameters.fromConfig(c))
        .hasMessageContaining(SecAggFlower.CLIP);
    c.remove(SecAggFlower.CLIP);
    assertThatThrownBy(() -> SecAggFlower.Parameters.fromConfig(c))
        .hasMessageContaining(SecAggFlower.CLIP);
  }

  @Test
  void stage_everyStageName_readsBack() {
    for (SecAggStage s : SecAggStage.values()) {
      assertThat(SecAggFlower.stage(SecAggFlower.stageName(s))).isEqualTo(s);
    }
    assertThatThrownBy(() -> SecAggFlower.stage("collect")).hasMessageContaining("collect");
  }
}
