package io.tributary.flower.secaggplus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.app.ClientApp;
import io.tributary.flower.app.Context;
import io.tributary.flower.app.LegacyClientApp;
import io.tributary.flower.app.mod.SecAggPlusMod;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link SecAggPlusWorkflow} over Java nodes wearing {@link SecAggPlusMod}, in the JVM: the
 * unmasked mean equals the example-weighted mean of the survivors' inputs, with a node dropping
 * after it shared its keys. (The mod's byte compatibility with Flower's workflow is
 * {@code SecAggPlusFlowerExampleTest}'s.)
 */
class SecAggPlusWorkflowTest {
  private final Map<Long, ClientApp> apps = new LinkedHashMap<>();
  private final Map<Long, Context> contexts = new HashMap<>();
  private final Map<Long, double[]> inputs = new HashMap<>();
  private final Map<Long, Long> examples = new HashMap<>();
  private int ids;

  private void node(long id, long numExamples, double... values) {
    inputs.put(id, values);
    examples.put(id, numExamples);
    FlowerClient client = new FlowerClient() {
      @Override
      public FitRes fit(FitIns ins) {
        return new FitRes(List.of(Tensor.ofDoubles(Shape.of(values.length), values)),
            numExamples, Map.of());
      }
    };
    apps.put(id, LegacyClientApp.of(client).withMods(new SecAggPlusMod()));
    contexts.put(id, new Context(1, id, Map.of(), Map.of(), RecordDict.empty()));
  }

  /** Delivers each stage to the apps; {@code drop} stops answering from {@code dropAt}. */
  private SecAggPlusWorkflow.Nodes nodes(Set<Long> drop, String dropAt) {
    return (stage, contents) -> {
      Map<Long, RecordDict> out = new HashMap<>();
      boolean dropping = stage.equals(dropAt);
      contents.forEach((id, content) -> {
        if (dropping && drop.contains(id)) {
          return;
        }
        Metadata md = new Metadata(1, "m" + ids++, 0, id, "", "1", 600, "train", 0);
        Message reply = apps.get(id).handle(Message.ofContent(md, content), contexts.get(id));
        if (reply.hasContent()) {
          out.put(id, reply.content());
        }
      });
      return out;
    };
  }

  private Map<Long, RecordDict> fitIns() {
    Map<Long, RecordDict> m = new HashMap<>();
    for (long id : apps.keySet()) {
      m.put(id, new RecordDict(Map.of("fitins.parameters", new ArrayRecord(Map.of()),
          "fitins.config", new ConfigRecord(Map.of()))));
    }
    return m;
  }

  @Test
  void run_oneNodeDropsAfterSharingKeys_meanOfTheSurvivorsInputs() throws Exception {
    node(1, 10, 0.5, -1.0, 2.0);
    node(2, 30, 1.5, 0.25, -3.0);
    node(-7, 20, -0.5, 4.0, 1.0);   // an id above 2^63
    node(4, 40, 9.0, 9.0, 9.0);     // drops before sending its masked vector
    node(5, 50, 0.0, 1.0, -1.0);
    SecAggPlusWorkflow wf = new SecAggPlusWorkflow(new SecAggPlusSettings(5, 3, 8.0, 1L << 22,
        1L << 32, 100.0));
    SecAggPlusResult r = wf.run(List.copyOf(apps.keySet()), fitIns(),
        nodes(Set.of(4L), "collect_masked_vectors"));
    assertThat(r.survivors()).containsExactlyInAnyOrder(1L, 2L, -7L, 5L);
    assertThat(r.failures()).containsOnlyKeys(4L);
    double[] expected = new double[3];
    long total = 0;
    for (long id : r.survivors()) {
      total += examples.get(id);
    }
    for (long id : r.survivors()) {
      for (int i = 0; i < 3; i++) {
        expected[i] += inputs.get(id)[i] * examples.get(id) / total;
      }
    }
    Tensor mean = r.mean().getFirst();
    assertThat(mean.shape().dims()).containsExactly(3);
    for (int i = 0; i < 3; i++) {
      // quantization: 16 / 2^22 per value and weight
      assertThat(mean.getDouble(i)).isCloseTo(expected[i], within(1e-4));
    }
  }

  @Test
  void run_tooManyDrop_failsWithoutASum() {
    node(1, 1, 1.0);
    node(2, 1, 2.0);
    node(3, 1, 3.0);
    SecAggPlusWorkflow wf = new SecAggPlusWorkflow(SecAggPlusSettings.of(3, 2));
    assertThatThrownBy(() -> wf.run(List.copyOf(apps.keySet()), fitIns(),
        nodes(Set.of(1L, 2L), "collect_masked_vectors")))
        .isInstanceOf(SecAggPlusRoundException.class)
        .hasMessageContaining("collect_masked_vectors").hasMessageContaining("live neighbours");
  }

  @Test
  void run_hostileRepliesAtSetup_dropsOnlyThatNode() throws Exception {
    node(1, 1, 1.0);
    node(2, 1, 2.0);
    node(3, 1, 3.0);
    node(4, 1, 4.0);
    SecAggPlusWorkflow.Nodes honest = nodes(Set.of(), "");
    SecAggPlusWorkflow.Nodes hostile = (stage, contents) -> {
      Map<Long, RecordDict> out = new HashMap<>(honest.train(stage, contents));
      if (stage.equals("setup")) {
        out.put(3L, RecordDict.empty());
      }
      return out;
    };
    // max_weight 1: each weight is 1, so no precision is lost to a small weight
    SecAggPlusResult r = new SecAggPlusWorkflow(new SecAggPlusSettings(3, 2, 8.0, 1L << 22,
        1L << 32, 1.0)).run(List.copyOf(apps.keySet()), fitIns(), hostile);
    assertThat(r.failures().get(3L)).contains("setup");
    assertThat(r.survivors()).containsExactlyInAnyOrder(1L, 2L, 4L);
    assertThat(r.mean().getFirst().getDouble(0)).isCloseTo(7.0 / 3, within(1e-4));
  }
}
