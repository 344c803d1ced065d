package io.tributary.cli;

import io.tributary.core.compiler.BlockPrinter;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.TypeChecker;
import io.tributary.core.types.Type;
import io.tributary.core.proto.ComputationProtos;
import io.tributary.core.proto.LocalResolver;
import io.tributary.core.proto.MalformedComputationException;
import io.tributary.learning.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code inspect} prints for a serialized {@code federated_language.Computation}: its type
 * in compact notation and its pretty-printed body. The computation is read and type checked in
 * full first, so a file that would not run is refused with the path of the problem.
 */
final class ComputationInspection {
  /** A protobuf message cannot be larger. */
  private static final long MAX_BYTES = Integer.MAX_VALUE - 8;

  private ComputationInspection() {}

  /** Whether {@code file} holds a computation rather than Flower {@code Parameters}. */
  static boolean isComputation(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      return false; // reported as a directory by the tensor path
    }
    try (InputStream in = Files.newInputStream(file)) {
      return ComputationProtos.looksLikeComputation(in);
    }
  }

  /** The report: {@code type: ...}, then the body; or a JSON object of both strings. */
  static String report(Path file, boolean json) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new TensorFileException(size + " bytes is more than a protobuf message can hold"
          + " (2 GiB)");
    }
    BuildingBlock block;
    try {
      // Java functions are resolved by the program that defined them; a file cannot name one.
      block = ComputationProtos.fromBytes(Files.readAllBytes(file), LocalResolver.none());
    } catch (MalformedComputationException e) {
      throw new TensorFileException("not a computation Tributary can run: " + e.getMessage());
    }
    // Well typed (fromBytes checked it), of any type: a value (a struct of data, say) is a
    // computation too, printed like a function.
    String type = TypeChecker.check(block).type().map(Type::compact).orElse("?");
    String body = BlockPrinter.format(block);
    String nl = System.lineSeparator();
    if (json) {
      return "{\"type\": " + Json.string(type) + ", \"body\": " + Json.string(body) + "}" + nl;
    }
    return "type: " + type + nl + "body:" + nl + body + nl;
  }
}
