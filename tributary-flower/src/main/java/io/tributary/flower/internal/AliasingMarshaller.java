package io.tributary.flower.internal;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import java.io.IOException;
import java.io.InputStream;

/**
 * A protobuf marshaller that parses a large message from one array, with its {@code bytes}
 * fields sharing that array.
 *
 * <p>grpc's own protobuf marshaller parses a message above 4 MiB from the stream, and protobuf
 * then reads each large {@code bytes} field in 4 KiB chunks, joins them and copies the result:
 * three passes over every model received. Here the message is read once into an array sized by
 * the transport (which has already received it whole and checked it against the maximum message
 * size) and parsed with aliasing. Small messages, and streams of unknown length, go to grpc's
 * marshaller. Sending is grpc's.
 */
final class AliasingMarshaller<T extends Message> implements MethodDescriptor.Marshaller<T> {
  /** Messages up to this size are parsed by grpc's marshaller. */
  private static final int LARGE = 1 << 20;

  private final MethodDescriptor.Marshaller<T> grpc;
  private final Parser<T> parser;

  @SuppressWarnings("unchecked")
  AliasingMarshaller(T defaultInstance) {
    this.grpc = ProtoUtils.marshaller(defaultInstance);
    this.parser = (Parser<T>) defaultInstance.getParserForType();
  }

  @Override
  public InputStream stream(T value) {
    return grpc.stream(value);
  }

  @Override
  public T parse(InputStream stream) {
    int size;
    try {
      size = stream instanceof KnownLength ? stream.available() : -1;
    } catch (IOException e) {
      throw invalid(e);
    }
    if (size <= LARGE) {
      return grpc.parse(stream);
    }
    try {
      byte[] buf = stream.readNBytes(size);
      if (buf.length != size || stream.read() != -1) {
        throw Status.INTERNAL.withDescription("message length changed while reading: expected "
            + size + " bytes").asRuntimeException();
      }
      CodedInputStream in = CodedInputStream.newInstance(buf);
      in.enableAliasing(true);
      in.setSizeLimit(Integer.MAX_VALUE);
      return parser.parseFrom(in);
    } catch (IOException e) {
      throw invalid(e);
    }
  }

  private static RuntimeException invalid(IOException e) {
    String what = e instanceof InvalidProtocolBufferException ? "Invalid protobuf byte sequence"
        : "cannot read the message";
    return Status.INTERNAL.withDescription(what).withCause(e).asRuntimeException();
  }
}
