package io.tributary.flower.testing;

import io.tributary.flower.Scalar;
import io.tributary.flower.internal.ParametersWire;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the seed corpus of the Flower message fuzz tests ({@code ServerMessageFuzzTest},
 * {@code ClientMessageFuzzTest}) from the project's own message builders.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.flower.testing.FuzzSeeds}; it overwrites
 * the {@code seed-*} files under {@code src/test/resources} and leaves other inputs alone.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources/io/tributary/flower");
    List<Tensor> params = List.of(Tensor.ofFloats(Shape.of(2, 2), 1, 2, 3, 4),
        Tensor.ofLongs(Shape.of(1), 9));
    Map<String, Scalar> config = new LinkedHashMap<>();
    config.put("lr", new Scalar.Double(0.1));
    config.put("epochs", new Scalar.Int(2));
    config.put("name", new Scalar.Str("round"));
    config.put("raw", new Scalar.Bytes(new byte[] {1, 2}));
    config.put("on", new Scalar.Bool(true));

    Path server = root.resolve("client/internal/ServerMessageFuzzTestInputs/handle");
    Files.createDirectories(server);
    byte[] fit = Messages.fit(params, config).toByteArray();
    Files.write(server.resolve("seed-fit"), fit);
    Files.write(server.resolve("seed-evaluate"), Messages.evaluate(params, Map.of()).toByteArray());
    Files.write(server.resolve("seed-get-properties"), Messages.getProperties(config).toByteArray());
    Files.write(server.resolve("seed-get-parameters"), Messages.getParameters().toByteArray());
    Files.write(server.resolve("seed-reconnect"), Messages.reconnect(5).toByteArray());
    Files.write(server.resolve("seed-truncated"), Arrays.copyOf(fit, fit.length - 7));

    SerializerRegistry registry = SerializerRegistry.load();
    var numpy = Messages.numpy(params);
    var proto = ParametersWire.encode(registry.forType("proto.ndarray"), params);
    Path client = root.resolve("internal/ClientMessageFuzzTestInputs/decode");
    Files.createDirectories(client);
    byte[] fitRes = ClientMessage.newBuilder().setFitRes(ClientMessage.FitRes.newBuilder()
        .setParameters(numpy).setNumExamples(10).putAllMetrics(ScalarCodec.toProto(config)))
        .build().toByteArray();
    Files.write(client.resolve("seed-fit-res"), fitRes);
    Files.write(client.resolve("seed-get-parameters-res-proto"), ClientMessage.newBuilder()
        .setGetParametersRes(ClientMessage.GetParametersRes.newBuilder().setParameters(proto))
        .build().toByteArray());
    Files.write(client.resolve("seed-evaluate-res"), ClientMessage.newBuilder()
        .setEvaluateRes(ClientMessage.EvaluateRes.newBuilder().setLoss(0.25f).setNumExamples(3)
            .putAllMetrics(ScalarCodec.toProto(Map.of("acc", new Scalar.Double(0.9)))))
        .build().toByteArray());
    Files.write(client.resolve("seed-get-properties-res"), ClientMessage.newBuilder()
        .setGetPropertiesRes(ClientMessage.GetPropertiesRes.newBuilder()
            .putAllProperties(ScalarCodec.toProto(config)))
        .build().toByteArray());
    Files.write(client.resolve("seed-truncated"), Arrays.copyOf(fitRes, fitRes.length - 7));
  }
}
