package io.tributary.bench;

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
 * The ceiling for any codec that must produce a fresh array: allocate one and copy into it.
 *
 * <p>{@code copyInto} reuses the destination, so it is the bare copy bandwidth; {@code
 * allocateAndCopy} adds the zeroing the JVM does for every new array.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, batchSize = 1)
@Measurement(iterations = 15, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch"})
public class MemoryBandwidthBenchmark {
  @Param("100")
  public int megabytes;

  private byte[] source;
  private byte[] target;

  @Setup
  public void setUp() {
    source = new byte[megabytes * 1_000_000];
    target = new byte[source.length];
    java.util.Arrays.fill(source, (byte) 7);
  }

  @Benchmark
  public byte[] copyInto() {
    System.arraycopy(source, 0, target, 0, source.length);
    return target;
  }

  @Benchmark
  public byte[] allocateAndCopy() {
    byte[] out = new byte[source.length];
    System.arraycopy(source, 0, out, 0, source.length);
    return out;
  }
}
