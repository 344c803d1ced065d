package io.tributary.bench;

import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.NpyException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * NPY encode and decode of one float32 tensor to and from memory.
 *
 * <p>The anchor is numpy's {@code np.save}/{@code np.load} through {@code BytesIO}, measured by
 * {@code scripts/numpy_anchor.py} in the same run (see {@code scripts/run-serialization.sh}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 15, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class NpyBenchmark {
  @Param("100")
  public int megabytes;

  private Tensor tensor;
  private byte[] encoded;

  @Setup
  public void setUp() throws NpyException {
    tensor = BenchData.randomTensor(DType.FLOAT32, megabytes, 42);
    encoded = Npy.toBytes(tensor);
  }

  @Benchmark
  public byte[] npyEncode() throws NpyException {
    return Npy.toBytes(tensor);
  }

  /** Decode into a new tensor: a full copy of the data. */
  @Benchmark
  public Tensor npyDecode() throws NpyException {
    return Npy.fromBytes(encoded);
  }

  /** Decode as a read-only view of the input, as received messages are decoded. */
  @Benchmark
  public double npyView() throws NpyException {
    Tensor t = Npy.view(encoded);
    // Touch the last element so the view is proven usable, not just constructed.
    return t.getFloat(t.size() - 1);
  }
}
