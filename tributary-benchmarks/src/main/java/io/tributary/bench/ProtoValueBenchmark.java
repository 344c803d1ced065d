package io.tributary.bench;

import io.tributary.bench.internal.proto.Value;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import io.tributary.tensor.serialization.SerializationException;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
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
 * {@code proto.ndarray} encode and decode of one {@code Value} message, against protobuf-java's
 * generated code for the same message (the benchmarks' own copy of the schema,
 * {@code src/main/proto/tributary/bench/value_anchor.proto}).
 *
 * <p>The anchor is given its most favourable input: a primitive array prepared in setup, added
 * element by element as generated code requires, and on decode read back into a primitive array.
 * Both sides produce the same bytes (checked in setup).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 8, batchSize = 1)
@Measurement(iterations = 15, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class ProtoValueBenchmark {
  @Param("100")
  public int megabytes;

  @Param({"float32", "float64"})
  public String dtype;

  private final ProtoNdarraySerializer serializer = new ProtoNdarraySerializer();
  private Tensor tensor;
  private Parameters parameters;
  private byte[] encoded;
  private Value prebuilt;
  private float[] floats;
  private double[] doubles;

  @Setup
  public void setUp() throws SerializationException {
    DType d = DType.fromName(dtype);
    tensor = BenchData.randomTensor(d, megabytes, 42);
    parameters = serializer.serialize(List.of(tensor));
    encoded = parameters.values().get(0);
    if (d == DType.FLOAT32) {
      floats = tensor.toFloatArray();
    } else {
      doubles = tensor.toDoubleArray();
    }
    byte[] anchor = protobufJavaEncode();
    try {
      prebuilt = Value.parseFrom(anchor);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
    if (!java.util.Arrays.equals(anchor, encoded)) {
      throw new IllegalStateException("protobuf-java and Tributary encode different bytes");
    }
  }

  @Benchmark
  public Parameters tributaryEncode() throws SerializationException {
    return serializer.serialize(List.of(tensor));
  }

  /** Decode; the tensor views the received bytes (see ValueCodec.decode). */
  @Benchmark
  public double tributaryDecode() throws SerializationException {
    Tensor t = serializer.deserialize(parameters).get(0);
    return t.getAsDouble(t.size() - 1);
  }

  /** protobuf-java's encode alone, from a message already built (its toByteArray). */
  @Benchmark
  public byte[] protobufJavaToByteArrayOnly() {
    return prebuilt.toByteArray();
  }

  /** protobuf-java's parse alone, leaving the values in its own list. */
  @Benchmark
  public Value protobufJavaParseOnly() throws InvalidProtocolBufferException {
    return Value.parseFrom(encoded);
  }

  @Benchmark
  public byte[] protobufJavaEncode() {
    Value.Builder b = Value.newBuilder();
    if (floats != null) {
      b.setDtype(Value.DataType.DT_FLOAT);
      for (float f : floats) {
        b.addFloat(f);
      }
      b.addShape(floats.length);
    } else {
      b.setDtype(Value.DataType.DT_DOUBLE);
      for (double x : doubles) {
        b.addDouble(x);
      }
      b.addShape(doubles.length);
    }
    return b.build().toByteArray();
  }

  @Benchmark
  public Object protobufJavaDecode() throws InvalidProtocolBufferException {
    Value v = Value.parseFrom(encoded);
    if (v.getDtype() == Value.DataType.DT_FLOAT) {
      float[] out = new float[v.getFloatCount()];
      for (int i = 0; i < out.length; i++) {
        out[i] = v.getFloat(i);
      }
      return out;
    }
    double[] out = new double[v.getDoubleCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.getDouble(i);
    }
    return out;
  }
}
