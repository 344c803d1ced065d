package io.tributary.bench;

import io.tributary.flower.AbstractFlowerClient;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.Scalar;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A load-test client: fit adds {@code shift} to every float32 parameter (one example, metric
 * {@code loss = shift}), evaluate reports loss {@code shift}. The server's aggregate is then the
 * mean shift, which a run can check.
 */
final class ShiftClient extends AbstractFlowerClient {
  private final float shift;

  ShiftClient(float shift) {
    this.shift = shift;
  }

  @Override
  public List<Tensor> getParameters(Map<String, Scalar> config) {
    return List.of();
  }

  @Override
  public FitRes fit(FitIns ins) {
    List<Tensor> out = new ArrayList<>(ins.parameters().size());
    for (Tensor t : ins.parameters()) {
      out.add(shifted(t, shift));
    }
    return new FitRes(out, 1, Map.of("loss", Scalar.of((double) shift)));
  }

  @Override
  public EvaluateRes evaluate(EvaluateIns ins) {
    return new EvaluateRes(shift, 1, Map.of());
  }

  /** {@code t + shift}, elementwise, for a float32 tensor of any size and chunking. */
  static Tensor shifted(Tensor t, float shift) {
    if (t.dtype() != DType.FLOAT32) {
      throw new IllegalArgumentException("ShiftClient handles float32 only, got " + t.dtype());
    }
    TensorBuilder b = TensorBuilder.allocate(DType.FLOAT32, t.shape());
    List<ByteBuffer> in = t.dataBuffers();
    int inIndex = 0;
    FloatBuffer src = in.isEmpty() ? FloatBuffer.allocate(0)
        : in.get(0).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    float[] block = new float[8192];
    for (ByteBuffer buf : b.writableBuffers()) {
      FloatBuffer dst = buf.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      while (dst.hasRemaining()) {
        while (!src.hasRemaining()) {
          src = in.get(++inIndex).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        }
        int k = Math.min(block.length, Math.min(dst.remaining(), src.remaining()));
        src.get(block, 0, k);
        for (int j = 0; j < k; j++) {
          block[j] += shift;
        }
        dst.put(block, 0, k);
      }
    }
    return b.build();
  }
}
