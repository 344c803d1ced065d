package io.tributary.graph.ops;

import io.tributary.graph.Op;

/**
 * The sizes of a 2-D convolution or pooling window over NHWC input, from the op's arguments
 * ({@code stride_h}, {@code stride_w}, default 1; {@code pad_h}, {@code pad_w}, zero padding on both
 * sides, default 0).
 */
record ConvGeometry(int kh, int kw, int sh, int sw, int ph, int pw) {
  static ConvGeometry conv(Op op, int kh, int kw) throws OpInferenceException {
    return new ConvGeometry(kh, kw, Infer.positiveInt(op, "stride_h", 1),
        Infer.positiveInt(op, "stride_w", 1), Infer.nonNegativeInt(op, "pad_h", 0),
        Infer.nonNegativeInt(op, "pad_w", 0));
  }

  static ConvGeometry pool(Op op) throws OpInferenceException {
    int kh = Infer.positiveInt(op, "kernel_h", 1);
    int kw = Infer.positiveInt(op, "kernel_w", 1);
    return new ConvGeometry(kh, kw, Infer.positiveInt(op, "stride_h", kh),
        Infer.positiveInt(op, "stride_w", kw), 0, 0);
  }

  static ConvGeometry convAtRuntime(Op op, int kh, int kw) {
    try {
      return conv(op, kh, kw);
    } catch (OpInferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  static ConvGeometry poolAtRuntime(Op op) {
    try {
      return pool(op);
    } catch (OpInferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** Output height for input height h, or -1 when the window does not fit. */
  long outH(long h) {
    return h < 0 ? -1 : outSize(h, kh, sh, ph);
  }

  long outW(long w) {
    return w < 0 ? -1 : outSize(w, kw, sw, pw);
  }

  private static long outSize(long in, int k, int s, int p) {
    long span = in + 2L * p - k;
    return span < 0 ? -2 : span / s + 1;
  }
}
