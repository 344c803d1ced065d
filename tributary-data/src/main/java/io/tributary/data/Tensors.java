package io.tributary.data;

import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.Iterator;
import java.util.List;

/** Bulk construction of float32 and int64 tensors, avoiding a setter call per element. */
final class Tensors {
  private Tensors() {}

  /** A float32 tensor of {@code shape} holding {@code values}. */
  static Tensor floats(Shape shape, float[] values) {
    FloatSink sink = new FloatSink(shape);
    sink.put(values, 0, values.length);
    return sink.build();
  }

  /** An int64 tensor of {@code shape} holding {@code values}. */
  static Tensor longs(Shape shape, long[] values) {
    if (shape.size() != values.length) {
      throw new IllegalArgumentException(values.length + " values do not fill " + shape);
    }
    TensorBuilder b = TensorBuilder.allocate(DType.INT64, shape);
    int at = 0;
    for (ByteBuffer chunk : b.writableBuffers()) {
      LongBuffer lb = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
      int n = lb.remaining();
      lb.put(values, at, n);
      at += n;
    }
    return b.build();
  }

  /**
   * Fills a float32 tensor front to back. Storage chunks are powers of two of at least 16 bytes,
   * so no float straddles two chunks.
   */
  static final class FloatSink {
    private final Shape shape;
    private final TensorBuilder builder;
    private final Iterator<ByteBuffer> chunks;
    private FloatBuffer current;
    private long written;

    FloatSink(Shape shape) {
      this.shape = shape;
      this.builder = TensorBuilder.allocate(DType.FLOAT32, shape);
      List<ByteBuffer> buffers = builder.writableBuffers();
      this.chunks = buffers.iterator();
    }

    void put(float[] src, int off, int len) {
      if (written + len > shape.size()) {
        throw new IllegalArgumentException("more than " + shape.size() + " values for " + shape);
      }
      while (len > 0) {
        if (current == null || !current.hasRemaining()) {
          current = chunks.next().duplicate().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        }
        int n = Math.min(len, current.remaining());
        current.put(src, off, n);
        off += n;
        len -= n;
        written += n;
      }
    }

    Tensor build() {
      if (written != shape.size()) {
        throw new IllegalArgumentException(written + " values do not fill " + shape);
      }
      return builder.build();
    }
  }
}
