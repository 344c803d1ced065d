package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Tensor;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GeneratedPopulationTest {
  private static final GeneratedPopulation POPULATION = new GeneratedPopulation(200, 4, 5, 9);

  @Test
  void client_sameIndexTwice_equalData() {
    Dataset a = POPULATION.client(123_456);
    Dataset b = POPULATION.client(123_456);
    assertThat(a.features()).isEqualTo(b.features());
    assertThat(a.labels()).isEqualTo(b.labels());
    assertThat(a.size()).isEqualTo(5);
    assertThat(a.exampleShape()).containsExactly(200);
    assertThat(a.numClasses()).isEqualTo(4);
  }

  @Test
  void client_otherIndexOrSeed_otherData() {
    Tensor c0 = POPULATION.client(0).features();
    assertThat(POPULATION.client(1).features()).isNotEqualTo(c0);
    assertThat(new GeneratedPopulation(200, 4, 5, 10).client(0).features()).isNotEqualTo(c0);
    assertThat(POPULATION.test().features()).isNotEqualTo(c0);
  }

  @Test
  void client_everyExample_hasThirtyTwoActiveFeatures() {
    Dataset d = POPULATION.client(7);
    for (int e = 0; e < d.size(); e++) {
      int nonZero = 0;
      for (int j = 0; j < 200; j++) {
        nonZero += d.features().getFloat((long) e * 200 + j) != 0 ? 1 : 0;
      }
      assertThat(nonZero).as("example %d", e).isEqualTo(GeneratedPopulation.ACTIVE_FEATURES);
    }
  }

  @Test
  void client_fewerFeaturesThanActive_everyFeatureActive() {
    Dataset d = new GeneratedPopulation(5, 3, 2, 1).client(0);
    for (int i = 0; i < 10; i++) {
      assertThat(d.features().getFloat(i)).isNotZero();
    }
  }

  @Test
  void labels_manyClients_everyClassAppears() {
    Set<Long> seen = new HashSet<>();
    for (int k = 0; k < 200; k++) {
      Dataset d = POPULATION.client(k);
      for (int e = 0; e < d.size(); e++) {
        seen.add(d.labels().getLong(e));
      }
    }
    assertThat(seen).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
  }

  @ParameterizedTest
  @CsvSource({"60, 10000", "784, 10000", "99999, 167", "16777216, 1", "20000000, 1"})
  void testSize_boundedByValues(int features, int expected) {
    assertThat(new GeneratedPopulation(features, 2, 1, 0).testSize()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
      "0, 10, 1, 'at least 1 feature'",
      "10, 1, 1, 'at least 2 classes'",
      "10, 10, 0, 'examples per client must be in [1, 10000]'",
      "10, 10, 10001, 'examples per client must be in [1, 10000]'",
      "100000, 10, 1000, 'values per client'",
      "67108864, 40, 1, 'too large a model'"})
  void constructor_badSizes_namedError(int features, int classes, int examples, String message) {
    assertThatThrownBy(() -> new GeneratedPopulation(features, classes, examples, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
  }

  @Test
  void client_negativeIndex_refused() {
    assertThatThrownBy(() -> POPULATION.client(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
  }
}
