package io.tributary.flower.fleet.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.flower.fleet.internal.ObjectCodec.BadObjectException;
import io.tributary.flower.fleet.internal.proto.ConfigRecordValue;
import io.tributary.flower.fleet.internal.proto.Error;
import io.tributary.flower.fleet.internal.proto.MetricRecordValue;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** Conversions between the records and Flower's protobuf messages. */
public final class Protos {
  private Protos() {}

  public static io.tributary.flower.fleet.internal.proto.Metadata metadata(Metadata m) {
    return io.tributary.flower.fleet.internal.proto.Metadata.newBuilder()
        .setRunId(m.runId()).setMessageId(m.messageId()).setSrcNodeId(m.srcNodeId())
        .setDstNodeId(m.dstNodeId()).setReplyToMessageId(m.replyToMessageId())
        .setGroupId(m.groupId()).setTtl(m.ttl()).setMessageType(m.messageType())
        .setCreatedAt(m.createdAt()).build();
  }

  public static Metadata metadata(io.tributary.flower.fleet.internal.proto.Metadata m) {
    return new Metadata(m.getRunId(), m.getMessageId(), m.getSrcNodeId(), m.getDstNodeId(),
        m.getReplyToMessageId(), m.getGroupId(), m.getTtl(), m.getMessageType(),
        m.getCreatedAt());
  }

  /** Flower 1.40+'s {@code Metadata.src_task_id}. */
  public static final int SRC_TASK_ID = 10;
  /** Flower 1.40+'s {@code Metadata.dst_task_id}. */
  public static final int DST_TASK_ID = 11;

  /** Flower 1.40+'s {@code Run.primary_task_id}. */
  public static final int RUN_PRIMARY_TASK_ID = 17;
  /** Flower 1.40+'s {@code Run.series_id}. */
  public static final int RUN_SERIES_ID = 18;

  /**
   * A field of a newer Flower that the carried 1.27 protos do not declare, read as text whatever
   * its wire type: a length-delimited value as UTF-8, a varint as an unsigned decimal, fixed
   * widths likewise; {@code ""} when absent. The last value wins, as protobuf's scalar fields do.
   * Reading by number keeps a node that guessed a type wrong from dropping the value.
   */
  public static String newerField(com.google.protobuf.UnknownFieldSet fields, int number) {
    if (!fields.hasField(number)) {
      return "";
    }
    com.google.protobuf.UnknownFieldSet.Field f = fields.getField(number);
    if (!f.getLengthDelimitedList().isEmpty()) {
      return f.getLengthDelimitedList().getLast().toStringUtf8();
    }
    if (!f.getVarintList().isEmpty()) {
      return Long.toUnsignedString(f.getVarintList().getLast());
    }
    if (!f.getFixed64List().isEmpty()) {
      return Long.toUnsignedString(f.getFixed64List().getLast());
    }
    if (!f.getFixed32List().isEmpty()) {
      return Integer.toUnsignedString(f.getFixed32List().getLast());
    }
    return "";
  }

  /**
   * The metadata fields a reply to {@code instruction} carries beyond Flower 1.27's: its
   * {@code src_task_id} and {@code dst_task_id} swapped, as Flower's {@code Message.create_reply}
   * does. They are moved as they came, whatever their wire type, so that a newer SuperLink gets
   * back exactly what it sent; fields 10 and 11 go out after 1..9, in Flower's field order.
   */
  public static com.google.protobuf.UnknownFieldSet replyFields(
      io.tributary.flower.fleet.internal.proto.Metadata instruction) {
    com.google.protobuf.UnknownFieldSet in = instruction.getUnknownFields();
    com.google.protobuf.UnknownFieldSet.Builder out = com.google.protobuf.UnknownFieldSet
        .newBuilder();
    if (in.hasField(DST_TASK_ID)) {
      out.addField(SRC_TASK_ID, in.getField(DST_TASK_ID));
    }
    if (in.hasField(SRC_TASK_ID)) {
      out.addField(DST_TASK_ID, in.getField(SRC_TASK_ID));
    }
    return out.build();
  }

  /** {@link #metadata(Metadata)} with {@code extra} fields (see {@link #replyFields}). */
  public static io.tributary.flower.fleet.internal.proto.Metadata metadata(Metadata m,
      com.google.protobuf.UnknownFieldSet extra) {
    return metadata(m).toBuilder().setUnknownFields(extra).build();
  }

  public static Error error(MessageError e) {
    return Error.newBuilder().setCode(e.code()).setReason(e.reason()).build();
  }

  public static MessageError error(Error e) {
    return new MessageError(e.getCode(), e.getReason());
  }

  /**
   * The message as PushMessages carries it (Flower's {@code remove_content_from_message}):
   * metadata, and the error or an empty RecordDict standing for the content, which travels as
   * objects.
   */
  public static io.tributary.flower.fleet.internal.proto.Message messageHead(
      io.tributary.flower.records.Message m) {
    return messageHead(m, com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  /** {@link #messageHead(io.tributary.flower.records.Message)} with extra metadata fields. */
  public static io.tributary.flower.fleet.internal.proto.Message messageHead(
      io.tributary.flower.records.Message m, com.google.protobuf.UnknownFieldSet extra) {
    var b = io.tributary.flower.fleet.internal.proto.Message.newBuilder()
        .setMetadata(metadata(m.metadata(), extra));
    if (m.hasContent()) {
      b.setContent(io.tributary.flower.fleet.internal.proto.RecordDict.getDefaultInstance());
    }
    m.error().ifPresent(e -> b.setError(error(e)));
    return b.build();
  }

  private static Object uint(long bits) {
    return bits >= 0 ? (Object) bits : new BigInteger(Long.toUnsignedString(bits));
  }

  private static List<Object> uints(List<Long> xs) {
    List<Object> out = new ArrayList<>(xs.size());
    for (long x : xs) {
      out.add(uint(x));
    }
    return out;
  }

  static MetricRecord metricRecord(String id, byte[] c, int off, int len, List<String> children)
      throws BadObjectException {
    if (!children.isEmpty()) {
      throw new BadObjectException("MetricRecord " + id + " has children");
    }
    io.tributary.flower.fleet.internal.proto.MetricRecord p;
    try {
      p = io.tributary.flower.fleet.internal.proto.MetricRecord.parser().parseFrom(c, off, len);
    } catch (InvalidProtocolBufferException e) {
      throw new BadObjectException("MetricRecord " + id + ": " + e.getMessage());
    }
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    for (var item : p.getItemsList()) {
      MetricRecordValue v = item.getValue();
      Object value = switch (v.getValueCase()) {
        case DOUBLE -> v.getDouble();
        case SINT64 -> v.getSint64();
        case UINT64 -> uint(v.getUint64());
        case DOUBLE_LIST -> List.copyOf(v.getDoubleList().getValsList());
        case SINT_LIST -> List.copyOf(v.getSintList().getValsList());
        case UINT_LIST -> uints(v.getUintList().getValsList());
        case VALUE_NOT_SET -> throw new BadObjectException("MetricRecord " + id + ": '"
            + item.getKey() + "' has no value");
      };
      m.put(item.getKey(), value);
    }
    try {
      return new MetricRecord(m);
    } catch (IllegalArgumentException e) {
      throw new BadObjectException("MetricRecord " + id + ": " + e.getMessage());
    }
  }

  static ConfigRecord configRecord(String id, byte[] c, int off, int len, List<String> children)
      throws BadObjectException {
    if (!children.isEmpty()) {
      throw new BadObjectException("ConfigRecord " + id + " has children");
    }
    io.tributary.flower.fleet.internal.proto.ConfigRecord p;
    try {
      p = io.tributary.flower.fleet.internal.proto.ConfigRecord.parser().parseFrom(c, off, len);
    } catch (InvalidProtocolBufferException e) {
      throw new BadObjectException("ConfigRecord " + id + ": " + e.getMessage());
    }
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    for (var item : p.getItemsList()) {
      ConfigRecordValue v = item.getValue();
      Object value = switch (v.getValueCase()) {
        case DOUBLE -> v.getDouble();
        case SINT64 -> v.getSint64();
        case UINT64 -> uint(v.getUint64());
        case BOOL -> v.getBool();
        case STRING -> v.getString();
        case BYTES -> v.getBytes().toByteArray();
        case DOUBLE_LIST -> List.copyOf(v.getDoubleList().getValsList());
        case SINT_LIST -> List.copyOf(v.getSintList().getValsList());
        case UINT_LIST -> uints(v.getUintList().getValsList());
        case BOOL_LIST -> List.copyOf(v.getBoolList().getValsList());
        case STRING_LIST -> List.copyOf(v.getStringList().getValsList());
        case BYTES_LIST -> v.getBytesList().getValsList().stream().map(ByteString::toByteArray)
            .toList();
        case VALUE_NOT_SET -> throw new BadObjectException("ConfigRecord " + id + ": '"
            + item.getKey() + "' has no value");
      };
      m.put(item.getKey(), value);
    }
    try {
      return new ConfigRecord(m);
    } catch (IllegalArgumentException e) {
      throw new BadObjectException("ConfigRecord " + id + ": " + e.getMessage());
    }
  }
}
