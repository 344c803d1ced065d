package io.tributary.graph.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadRunsTest {
  /** 60 features, 10 classes. */
  private static final Model MCLR = Models.mclr();

  private static CompiledRun template() {
    List<String> feeds = new ArrayList<>(MCLR.trainableNames());
    feeds.add(MCLR.input());
    feeds.add(MCLR.labels());
    return new GraphExecutor(MCLR.graph()).compile(feeds, List.of(MCLR.loss(), MCLR.accuracy()));
  }

  /** The parameters of seed {@code seed} then a batch of {@code rows}, in the template's order. */
  private static NdArray[] feeds(long seed, int rows) {
    List<NdArray> f = new ArrayList<>();
    Map<String, Tensor> params = MCLR.initialParameters(seed);
    for (String p : MCLR.trainableNames()) {
      f.add(NdArray.fromTensor(params.get(p)));
    }
    int features = 60;
    NdArray[] batch = CompiledRunTest.batch(rows, features, DType.FLOAT32,
        new SplittableRandom(seed));
    f.add(batch[0]);
    f.add(batch[1]);
    return f.toArray(NdArray[]::new);
  }

  private static List<Double> outputs(NdArray[] out) {
    return List.of(out[0].get(0), out[1].get(0));
  }

  @Test
  void take_sameThreadAfterGivingBack_sameRun() {
    ThreadRuns runs = new ThreadRuns(template());
    CompiledRun first = runs.take();
    runs.giveBack(first, true);

    assertThat(runs.take()).isSameAs(first);
  }

  @Test
  void take_whileTheThreadsRunIsTaken_anotherRun() {
    ThreadRuns runs = new ThreadRuns(template());
    CompiledRun outer = runs.take();
    CompiledRun inner = runs.take();
    runs.giveBack(inner, true);
    runs.giveBack(outer, true);

    assertThat(inner).isNotSameAs(outer);
    assertThat(runs.take()).isSameAs(outer);
  }

  @Test
  void with_workCompletesThenThrows_keepsThenDropsTheRun() {
    ThreadRuns runs = new ThreadRuns(template());
    CompiledRun kept = runs.with(r -> r);
    CompiledRun again = runs.with(r -> r);
    assertThat(again).isSameAs(kept);

    assertThatThrownBy(() -> runs.with(r -> {
      throw new IllegalStateException("step failed");
    })).hasMessage("step failed");

    CompiledRun after = runs.with(r -> r);
    assertThat(after).isNotSameAs(kept);
  }

  @Test
  void take_givenBackAfterAFailure_anotherRunNext() {
    ThreadRuns runs = new ThreadRuns(template());
    CompiledRun failed = runs.take();
    runs.giveBack(failed, false);

    assertThat(runs.take()).isNotSameAs(failed);
  }

  @Test
  void take_twoThreads_neverTheSameRun() throws Exception {
    ThreadRuns runs = new ThreadRuns(template());
    CompiledRun here = runs.take();
    AtomicReference<CompiledRun> there = new AtomicReference<>();
    Thread t = Thread.ofPlatform().start(() -> {
      CompiledRun r = runs.take();
      there.set(r);
      runs.giveBack(r, true);
    });
    t.join();

    assertThat(there.get()).isNotNull().isNotSameAs(here).isNotSameAs(runs.template());
  }

  @Test
  void run_keptRunAcrossCallsOfOtherParametersAndBatchSizes_sameBitsAsFreshRuns() {
    CompiledRun template = template();
    ThreadRuns runs = new ThreadRuns(template);
    // Calls as clients make them: other parameters, other batch sizes, a size seen before.
    int[] rows = {10, 3, 10, 7, 1, 3};
    for (int i = 0; i < rows.length; i++) {
      NdArray[] f = feeds(100 + i, rows[i]);
      List<Double> fresh = outputs(template.fresh().run(f));
      CompiledRun kept = runs.take();
      List<Double> got = outputs(kept.run(f));
      runs.giveBack(kept, true);

      assertThat(got).as("call %d, %d rows", i, rows[i]).isEqualTo(fresh);
    }
  }
}
