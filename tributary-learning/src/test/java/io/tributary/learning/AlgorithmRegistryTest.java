package io.tributary.learning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.registered.ScaledMeanSpec;
import io.tributary.learning.suite.FedAvgSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AlgorithmRegistryTest {
  @Test
  void installed_suiteThenRegistered_inOrder() {
    assertThat(AlgorithmRegistry.installed().descriptions().keySet()).containsExactly("fedavg",
        "fedavgm", "fedprox", "fedadam", "fedyogi", "fedadagrad", "fedmedian", "fedtrimmedavg",
        "krum", "multikrum", "bulyan", "qfedavg", "hierfavg", "scaledmean");
  }

  @Test
  void build_registeredSpec_takesItsHyperparameter() {
    FederatedAlgorithm a = AlgorithmRegistry.installed().build("scaledmean",
        Map.of("scale", 0.25));
    assertThat(a.name()).isEqualTo("scaledmean");
    assertThat(a.aggregator().name()).isEqualTo("scaled_mean");
    assertThat(AlgorithmRegistry.installed().defaults("ScaledMean")).containsEntry("scale", 0.5);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      scaledmean | scale | 0    | scaledmean: scale must be in (0, 1], got 0.0
      scaledmean | scale | 1.5  | scaledmean: scale must be in (0, 1], got 1.5
      scaledmean | scale | NaN  | scaledmean: scale must be finite, got NaN
      krum       | num_malicious_clients | 1.5 | krum: num_malicious_clients must be a whole number >= 0, got 1.5
      krum       | num_malicious_clients | 3e9 | krum: num_malicious_clients must be a whole number at most 2147483647, got 3.0E9
      multikrum  | num_clients_to_keep | 0 | multikrum: num_clients_to_keep must be a whole number >= 1, got 0.0
      fedtrimmedavg | beta | 0.5  | fedtrimmedavg: beta must be in [0, 0.5), got 0.5
      fedadam    | eta   | 0    | fedadam: eta must be in (0, inf), got 0.0
      hierfavg   | edge_rounds | 0 | hierfavg: edge_rounds must be a whole number in [1, 1000], got 0.0
      hierfavg   | edges | 1.5  | hierfavg: edges must be a whole number in [1, 1048576], got 1.5
      fedadam    | gamma | 1    | fedadam has no hyperparameter 'gamma'; it takes eta, beta_1, beta_2, tau
      """)
  void build_badValue_namesAlgorithmHyperparameterAndRange(String algorithm, String name,
      double value, String message) {
    assertThatThrownBy(() -> AlgorithmRegistry.installed().build(algorithm, Map.of(name, value)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  @Test
  void of_twoSpecsWithOneName_refusedNamingBoth() {
    assertThatThrownBy(() -> AlgorithmRegistry.of(List.of(new FedAvgSpec(), new FedAvgSpec())))
        .hasMessageContaining("two algorithms are named 'fedavg'")
        .hasMessageContaining(FedAvgSpec.class.getName());
  }

  @Test
  void of_ownList_knowsOnlyIt() {
    AlgorithmRegistry r = AlgorithmRegistry.of(List.of(new ScaledMeanSpec()));
    assertThat(r.contains("scaledmean")).isTrue();
    assertThatThrownBy(() -> r.spec("fedavg"))
        .hasMessage("unknown algorithm 'fedavg'; known: scaledmean");
  }

  @Test
  void spec_hundredKilobyteName_echoedCut() {
    AlgorithmRegistry r = AlgorithmRegistry.of(List.of(new ScaledMeanSpec()));
    assertThatThrownBy(() -> r.spec("x".repeat(100_000)))
        .hasMessage("unknown algorithm '" + "x".repeat(64) + "...(100000 chars)'; known: "
            + "scaledmean");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      [0, 1)     | [0, 1)
      ( 0 ,inf ) | (0, inf)
      [-inf, 2]  | [-inf, 2]
      """)
  void hyperparameter_rangeNotation_normalised(String given, String shown) {
    assertThat(Hyperparameter.real("x", 0.5, given, "").range()).isEqualTo(shown);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      0, 1       | x: range '0, 1' is not an interval such as [0, 1) or (0, inf)
      [1, 0]     | x: range '[1, 0]' is empty
      [a, b]     | x: range '[a, b]' is not an interval such as [0, 1) or (0, inf)
      [0.6, 1]   | x must be in [0.6, 1], got 0.5
      """)
  void hyperparameter_badDeclaration_refused(String range, String message) {
    assertThatThrownBy(() -> Hyperparameter.real("x", 0.5, range, ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }
}
