package io.tributary.simulation.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.data.Dataset;
import io.tributary.graph.models.Model;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.learning.rounds.RoundReport;
import io.tributary.learning.FederatedAlgorithm;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.SimulationData;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A simulated client whose update is not finite is left out and named in the round's metrics. */
class FederatedRunUntrustedTest {
  private static SimulationSettings config() {
    return new SimulationSettings(FederatedAlgorithm.fedAvg(), DatasetSpec.parse("digits"), null, "iid",
        ModelKind.MCLR, 4, 4, 1, 1, 16, 0.1, 0, 3, 2, 10, Path.of("unused"));
  }

  /** The dataset with every feature of its first example NaN, so training on it gives NaN. */
  private static Dataset poisoned(Dataset d) {
    Tensor f = d.features();
    TensorBuilder b = TensorBuilder.allocate(f.dtype(), f.shape());
    long perExample = f.size() / d.size();
    for (long i = 0; i < f.size(); i++) {
      b.setFloat(i, i < perExample ? Float.NaN : f.getFloat(i));
    }
    return new Dataset(d.name(), b.build(), d.labels(), d.numClasses());
  }

  @Test
  void round_clientUpdateNotFinite_isExcludedAndNamedInTheMetrics() throws Exception {
    SimulationSettings c = config();
    SimulationData clean = SimulationData.load(c);
    List<Dataset> train = new ArrayList<>(clean.clientTrain());
    train.set(2, poisoned(train.get(2)));
    SimulationData data = new SimulationData(clean.name(), train, clean.test());
    Model model = c.model().build(data.name(), data.exampleShape(), data.numClasses());
    try (FederatedRun run = new FederatedRun(c, data, model)) {
      RoundReport report = run.loop().round(1, run.state());
      RoundRecord round = run.record(report);

      assertThat(round.clients()).isEqualTo(4);
      assertThat(round.failures()).isEqualTo(1);
      assertThat(round.failureReasons().getFirst())
          .startsWith("client 2 ").contains("not finite").contains("NaN");
      assertThat(round.examples()).isEqualTo(clean.clientTrain().stream()
          .mapToLong(Dataset::size).sum() - train.get(2).size());
      assertThat(run.parameters(report.state()).values()).allSatisfy(t -> assertThat(Finite.isFinite(t))
          .isTrue());
      // Client 2's training data now score NaN: that evaluation is left out and counted.
      assertThat(round.failureReasons()).hasSize(2);
      assertThat(round.failureReasons().get(1))
          .contains("training data of client 2").contains("not finite");
      assertThat(round.nonFiniteMetrics()).isEqualTo(1);
      assertThat(Double.isFinite(round.trainLoss())).isTrue();
    }
  }
}
