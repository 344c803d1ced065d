package io.tributary.graph.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.graph.ops.Gemm;
import io.tributary.graph.ops.GemmKernel;
import io.tributary.graph.ops.NdArray;
import io.tributary.graph.optim.Sgd;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The FedAvg 2NN trained on every Java kernel (Vector API and plain loops, as a JVM with or without
 * {@code jdk.incubator.vector} runs) at 1, 2 and 3 threads: the same parameters, bit for bit.
 */
class TrainerThreadsTest {
  @Test
  void trainBatch_fedAvg2nnOnAnyJavaKernelAndThreadCount_identicalParameters() {
    Model model = Models.fedAvg2nn();
    SplittableRandom rnd = new SplittableRandom(11);
    List<NdArray> xs = new ArrayList<>();
    List<NdArray> ys = new ArrayList<>();
    // Six full batches of 32 and a ragged one of 16, as an epoch ends.
    for (int batch = 0; batch < 7; batch++) {
      int n = batch < 6 ? 32 : 16;
      float[] x = new float[n * 784];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) rnd.nextDouble();
      }
      long[] y = new long[n];
      for (int i = 0; i < n; i++) {
        y[i] = rnd.nextInt(10);
      }
      xs.add(NdArray.wrapFloats(new int[] {n, 784}, x));
      ys.add(NdArray.wrapLongs(DType.INT64, new int[] {n}, y));
    }
    Map<String, Tensor> reference = null;
    for (Gemm.Kernel impl : List.of(Gemm.Kernel.VECTOR, Gemm.Kernel.PORTABLE)) {
      if (!Gemm.isAvailable(impl)) {
        continue;
      }
      for (int threads = 1; threads <= 3; threads++) {
        GemmKernel kernel = GemmKernel.of(impl).withThreads(threads);
        Trainer trainer = new Trainer(model.graph(), model.loss(), model.input(), model.labels(),
            model.accuracy(), model.trainableNames(), new Sgd(0.05), model.initialParameters(3),
            kernel);
        for (int i = 0; i < xs.size(); i++) {
          trainer.trainBatch(xs.get(i), ys.get(i));
        }
        Map<String, Tensor> parameters = trainer.parameters();
        if (reference == null) {
          reference = parameters;
        } else {
          assertThat(parameters).as("%s", kernel).isEqualTo(reference);
        }
      }
    }
    assertThat(reference).isNotNull().isNotEqualTo(model.initialParameters(3));
  }
}
