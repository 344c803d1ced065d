package io.tributary.core.proto;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Literal;
import io.tributary.core.proto.internal.DataReference;
import io.tributary.core.types.Type;
import java.util.List;

/**
 * The payloads of {@code federated_language.Data.content} (a {@code google.protobuf.Any}) that
 * Tributary resolves, by the type name at the end of the Any's type URL:
 *
 * <ul>
 *   <li>{@code tributary.core.DataReference}: a URI that the runtime binds
 *       ({@code RuntimeOptions.withData}); read as a {@link Data} node, and what Tributary writes
 *       for one;
 *   <li>{@code federated_language.Array}: an inline tensor; read as a {@link Literal}, whose type
 *       must then equal the node's declared type.
 * </ul>
 *
 * Any other payload is refused with its type URL named; nothing in a type URL is ever turned into
 * a class.
 */
final class DataPayloads {
  static final String PREFIX = "type.googleapis.com/";
  static final String REFERENCE = "tributary.core.DataReference";
  static final String ARRAY = "federated_language.Array";

  private DataPayloads() {}

  /** The content Tributary writes for a {@link Data} node. */
  static Any write(Data d) {
    return Any.newBuilder()
        .setTypeUrl(PREFIX + REFERENCE)
        .setValue(DataReference.newBuilder().setUri(d.uri()).build().toByteString())
        .build();
  }

  /** The node a content payload stands for. */
  static BuildingBlock read(Any content, Type type, String path)
      throws MalformedComputationException {
    String url = content.getTypeUrl();
    String name = url.substring(url.lastIndexOf('/') + 1);
    try {
      if (name.equals(REFERENCE)) {
        String uri = DataReference.parseFrom(content.getValue()).getUri();
        if (uri.isEmpty()) {
          throw new MalformedComputationException(path, "the data reference has an empty uri");
        }
        return new Data(uri, type);
      }
      if (name.equals(ARRAY)) {
        var array = io.tributary.core.proto.internal.Array.parseFrom(content.getValue());
        return new Literal(ArrayProtos.fromProto(array, path + ".content"));
      }
    } catch (InvalidProtocolBufferException e) {
      throw new MalformedComputationException(path, "the data content of type '" + url
          + "' cannot be parsed: " + e.getMessage(), e);
    }
    throw new MalformedComputationException(path, "data content of type '" + url
        + "' cannot be resolved; Tributary reads " + List.of(PREFIX + REFERENCE, PREFIX + ARRAY)
        + " or a uri");
  }
}
