package io.tributary.flower.fleet.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.flower.fleet.internal.proto.BoolList;
import io.tributary.flower.fleet.internal.proto.BytesList;
import io.tributary.flower.fleet.internal.proto.ConfigRecordValue;
import io.tributary.flower.fleet.internal.proto.DoubleList;
import io.tributary.flower.fleet.internal.proto.MetricRecordValue;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.fleet.internal.proto.SintList;
import io.tributary.flower.fleet.internal.proto.StringList;
import io.tributary.flower.fleet.internal.proto.UintList;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Flower's content addressing (its {@code InflatableObject}s), written from
 * {@code flwr/supercore/inflatable/} and the records' {@code deflate}/{@code inflate} of Flower
 * 1.27.
 *
 * <p><b>Object content</b> is a head, a zero byte and a body. The head is
 * {@code "<type> <child ids joined by ','> <body length>"} in UTF-8, where the type is the Python
 * class name ({@code Message}, {@code RecordDict}, {@code ArrayRecord}, {@code MetricRecord},
 * {@code ConfigRecord}, {@code Array}, {@code ArrayChunk}) and the children are the object's
 * distinct children in first-appearance order. The <b>object id</b> is the lowercase hex SHA-256 of
 * the whole content.
 *
 * <p><b>Bodies.</b> {@code Message}: the protobuf {@code Message} with its metadata (message id
 * emptied) and error, no content. {@code RecordDict} and {@code ArrayRecord}: Python's
 * {@code json.dumps} of {name: child id}. {@code MetricRecord} and {@code ConfigRecord}: the
 * protobuf record with its items (ints as {@code sint64}, above int64 as {@code uint64}).
 * {@code Array}: {@code json.dumps({"dtype", "shape", "stype", "arraychunk_ids"})} where the chunk
 * ids are indices into the head's children. {@code ArrayChunk}: raw bytes of the array data, cut
 * into {@link #CHUNK_SIZE} pieces (Flower's {@code FLWR_PRIVATE_MAX_ARRAY_CHUNK_SIZE}). A
 * message's id is its object id.
 */
public final class ObjectCodec {
  /** Flower's default array chunk size, 5 MiB. */
  public static final int CHUNK_SIZE = 5 * 1024 * 1024;
  /** The longest head accepted on reading (ids of up to 4096 children). */
  static final int MAX_HEAD = 70 * 4096 + 64;

  private ObjectCodec() {}

  /** An object tree with every object's content, in post-order (children before parents). */
  public record Deflated(String rootId, ObjectTree tree, LinkedHashMap<String, byte[]> objects) {}

  public static String objectId(byte[] content) {
    return objectId(content, 0, content.length);
  }

  public static String objectId(byte[] content, int off, int len) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(content, off, len);
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static boolean isObjectId(String s) {
    if (s.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
        return false;
      }
    }
    return true;
  }

  static byte[] content(String type, Iterable<String> children, byte[] body, int off, int len) {
    String head = type + " " + String.join(",", children) + " " + len;
    byte[] h = head.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[h.length + 1 + len];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, off, out, h.length + 1, len);
    return out;
  }

  static byte[] content(String type, Iterable<String> children, byte[] body) {
    return content(type, children, body, 0, body.length);
  }

  // ---------------------------------------------------------------- deflating

  private static final class Out {
    final LinkedHashMap<String, byte[]> objects = new LinkedHashMap<>();

    ObjectTree add(String type, List<ObjectTree> children, byte[] body) {
      LinkedHashMap<String, ObjectTree> distinct = new LinkedHashMap<>();
      for (ObjectTree c : children) {
        distinct.putIfAbsent(c.getObjectId(), c);
      }
      byte[] c = content(type, distinct.keySet(), body);
      String id = objectId(c);
      objects.putIfAbsent(id, c);
      return ObjectTree.newBuilder().setObjectId(id).addAllChildren(distinct.values()).build();
    }
  }

  /** The object id a message gets when sent: the id of its content-addressed form. */
  public static String messageId(Message m) {
    return deflate(m).rootId();
  }

  /** Every object of {@code m}, its tree and id, as Flower's {@code get_all_nested_objects}. */
  public static Deflated deflate(Message m) {
    Out out = new Out();
    List<ObjectTree> children = new ArrayList<>();
    if (m.hasContent()) {
      children.add(recordDict(out, m.content()));
    }
    io.tributary.flower.fleet.internal.proto.Message.Builder body =
        io.tributary.flower.fleet.internal.proto.Message.newBuilder()
            .setMetadata(Protos.metadata(m.metadata().withMessageId("")));
    m.error().ifPresent(e -> body.setError(Protos.error(e)));
    ObjectTree tree = out.add("Message", children, body.build().toByteArray());
    return new Deflated(tree.getObjectId(), tree, out.objects);
  }

  private static ObjectTree recordDict(Out out, RecordDict d) {
    LinkedHashMap<String, String> refs = new LinkedHashMap<>();
    List<ObjectTree> children = new ArrayList<>();
    for (Map.Entry<String, Record> e : d.records().entrySet()) {
      ObjectTree t = switch (e.getValue()) {
        case ArrayRecord r -> arrayRecord(out, r);
        case MetricRecord r -> out.add("MetricRecord", List.of(), metricBody(r));
        case ConfigRecord r -> out.add("ConfigRecord", List.of(), configBody(r));
      };
      refs.put(e.getKey(), t.getObjectId());
      children.add(t);
    }
    return out.add("RecordDict", children, utf8(PyJson.stringMap(refs)));
  }

  private static ObjectTree arrayRecord(Out out, ArrayRecord r) {
    LinkedHashMap<String, String> refs = new LinkedHashMap<>();
    List<ObjectTree> children = new ArrayList<>();
    for (Map.Entry<String, Array> e : r.arrays().entrySet()) {
      ObjectTree t = array(out, e.getValue());
      refs.put(e.getKey(), t.getObjectId());
      children.add(t);
    }
    return out.add("ArrayRecord", children, utf8(PyJson.stringMap(refs)));
  }

  private static ObjectTree array(Out out, Array a) {
    byte[] data = a.data();
    List<ObjectTree> chunks = new ArrayList<>();
    List<String> distinct = new ArrayList<>();
    StringBuilder indices = new StringBuilder("[");
    for (int start = 0; start < data.length; start += CHUNK_SIZE) {
      int len = Math.min(CHUNK_SIZE, data.length - start);
      byte[] c = content("ArrayChunk", List.of(), data, start, len);
      String id = objectId(c);
      out.objects.putIfAbsent(id, c);
      ObjectTree t = ObjectTree.newBuilder().setObjectId(id).build();
      chunks.add(t);
      int index = distinct.indexOf(id);
      if (index < 0) {
        index = distinct.size();
        distinct.add(id);
      }
      indices.append(start == 0 ? "" : ", ").append(index);
    }
    indices.append(']');
    StringBuilder b = new StringBuilder("{\"dtype\": ");
    PyJson.string(b, a.dtype());
    b.append(", \"shape\": ").append(PyJson.intList(a.shape())).append(", \"stype\": ");
    PyJson.string(b, a.stype());
    b.append(", \"arraychunk_ids\": ").append(indices).append('}');
    return out.add("Array", chunks, utf8(b.toString()));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] metricBody(MetricRecord r) {
    var b = io.tributary.flower.fleet.internal.proto.MetricRecord.newBuilder();
    r.values().forEach((k, v) -> b.addItems(
        io.tributary.flower.fleet.internal.proto.MetricRecord.Item.newBuilder().setKey(k)
            .setValue(metricValue(v))));
    return b.build().toByteArray();
  }

  static byte[] configBody(ConfigRecord r) {
    var b = io.tributary.flower.fleet.internal.proto.ConfigRecord.newBuilder();
    r.values().forEach((k, v) -> b.addItems(
        io.tributary.flower.fleet.internal.proto.ConfigRecord.Item.newBuilder().setKey(k)
            .setValue(configValue(v))));
    return b.build().toByteArray();
  }

  private static MetricRecordValue metricValue(Object v) {
    var b = MetricRecordValue.newBuilder();
    switch (v) {
      case Double d -> b.setDouble(d);
      case Long l -> b.setSint64(l);
      case BigInteger u -> b.setUint64(u.longValue());
      case List<?> l when !l.isEmpty() && l.getFirst() instanceof Double -> b.setDoubleList(
          DoubleList.newBuilder().addAllVals(l.stream().map(x -> (Double) x).toList()));
      case List<?> l when l.isEmpty() -> b.setDoubleList(DoubleList.getDefaultInstance());
      case List<?> l when l.stream().anyMatch(x -> x instanceof BigInteger) -> b.setUintList(
          UintList.newBuilder().addAllVals(l.stream().map(x -> ((Number) x).longValue()).toList()));
      case List<?> l -> b.setSintList(
          SintList.newBuilder().addAllVals(l.stream().map(x -> (Long) x).toList()));
      default -> throw new IllegalArgumentException("not a metric value: " + v);
    }
    return b.build();
  }

  private static ConfigRecordValue configValue(Object v) {
    var b = ConfigRecordValue.newBuilder();
    switch (v) {
      case Double d -> b.setDouble(d);
      case Long l -> b.setSint64(l);
      case BigInteger u -> b.setUint64(u.longValue());
      case Boolean x -> b.setBool(x);
      case String s -> b.setString(s);
      case byte[] x -> b.setBytes(ByteString.copyFrom(x));
      case List<?> l when l.isEmpty() -> b.setBoolList(BoolList.getDefaultInstance());
      case List<?> l when l.getFirst() instanceof Double -> b.setDoubleList(
          DoubleList.newBuilder().addAllVals(l.stream().map(x -> (Double) x).toList()));
      case List<?> l when l.getFirst() instanceof Boolean -> b.setBoolList(
          BoolList.newBuilder().addAllVals(l.stream().map(x -> (Boolean) x).toList()));
      case List<?> l when l.getFirst() instanceof String -> b.setStringList(
          StringList.newBuilder().addAllVals(l.stream().map(x -> (String) x).toList()));
      case List<?> l when l.getFirst() instanceof byte[] -> b.setBytesList(
          BytesList.newBuilder().addAllVals(l.stream().map(x -> ByteString.copyFrom((byte[]) x))
              .toList()));
      case List<?> l when l.stream().anyMatch(x -> x instanceof BigInteger) -> b.setUintList(
          UintList.newBuilder().addAllVals(l.stream().map(x -> ((Number) x).longValue()).toList()));
      case List<?> l -> b.setSintList(
          SintList.newBuilder().addAllVals(l.stream().map(x -> (Long) x).toList()));
      default -> throw new IllegalArgumentException("not a config value: " + v);
    }
    return b.build();
  }

  /**
   * Checks that {@code tree} is what the objects' heads say: each node's children are exactly the
   * children its object names, in order.
   */
  public static void checkTree(ObjectTree tree, Map<String, byte[]> objects)
      throws BadObjectException {
    byte[] c = objects.get(tree.getObjectId());
    if (c == null) {
      throw new BadObjectException("object " + tree.getObjectId() + " is missing");
    }
    Parsed p = parse(tree.getObjectId(), c);
    List<String> kids = new ArrayList<>();
    for (ObjectTree t : tree.getChildrenList()) {
      kids.add(t.getObjectId());
    }
    if (!kids.equals(p.children)) {
      throw new BadObjectException("the object tree disagrees with the head of object "
          + tree.getObjectId());
    }
    for (ObjectTree t : tree.getChildrenList()) {
      checkTree(t, objects);
    }
  }

  // ---------------------------------------------------------------- inflating

  /** Content that is not a well-formed object of the expected kind. */
  public static final class BadObjectException extends Exception {
    public BadObjectException(String message) {
      super(message);
    }
  }

  private record Parsed(String type, List<String> children, int bodyOff, int bodyLen) {}

  static Parsed parse(String id, byte[] c) throws BadObjectException {
    int zero = -1;
    for (int i = 0; i < Math.min(c.length, MAX_HEAD); i++) {
      if (c[i] == 0) {
        zero = i;
        break;
      }
    }
    if (zero < 0) {
      throw new BadObjectException("object " + id + " has no head");
    }
    String head = new String(c, 0, zero, StandardCharsets.UTF_8);
    String[] parts = head.split(" ", -1);
    if (parts.length != 3) {
      throw new BadObjectException("object " + id + " has a malformed head");
    }
    long len;
    try {
      len = Long.parseLong(parts[2]);
    } catch (NumberFormatException e) {
      throw new BadObjectException("object " + id + " has a malformed body length");
    }
    if (len != c.length - zero - 1) {
      throw new BadObjectException("object " + id + " declares a body of " + len
          + " bytes but has " + (c.length - zero - 1));
    }
    List<String> children = parts[1].isEmpty() ? List.of() : List.of(parts[1].split(",", -1));
    for (String ch : children) {
      if (!isObjectId(ch)) {
        throw new BadObjectException("object " + id + " names an invalid child id");
      }
    }
    return new Parsed(parts[0], children, zero + 1, (int) len);
  }

  /**
   * The message whose objects are {@code objects}, rooted at {@code rootId}, checked as Flower's
   * {@code inflate}s check them: every object's type where it appears, every child named in a
   * head present, {@code ArrayRecord}/{@code RecordDict}/{@code Array} bodies naming exactly the
   * head's children. Content hashes are not checked here: the caller checks each object as it
   * arrives.
   */
  public static Message inflate(String rootId, Map<String, byte[]> objects)
      throws BadObjectException {
    Parsed p = parsed(rootId, objects, "Message");
    byte[] c = objects.get(rootId);
    io.tributary.flower.fleet.internal.proto.Message proto;
    try {
      proto = io.tributary.flower.fleet.internal.proto.Message.parser().parseFrom(c, p.bodyOff, p.bodyLen);
    } catch (InvalidProtocolBufferException e) {
      throw new BadObjectException("message body is not a protobuf Message: " + e.getMessage());
    }
    Metadata md = Protos.metadata(proto.getMetadata()).withMessageId(rootId);
    if (proto.hasError()) {
      if (!p.children.isEmpty()) {
        throw new BadObjectException("a message with an error has content");
      }
      return Message.ofError(md, Protos.error(proto.getError()));
    }
    if (p.children.size() != 1) {
      throw new BadObjectException("a message has " + p.children.size() + " contents");
    }
    return Message.ofContent(md, inflateRecordDict(p.children.getFirst(), objects));
  }

  private static Parsed parsed(String id, Map<String, byte[]> objects, String type)
      throws BadObjectException {
    byte[] c = objects.get(id);
    if (c == null) {
      throw new BadObjectException("object " + id + " is missing");
    }
    Parsed p = parse(id, c);
    if (!p.type.equals(type)) {
      throw new BadObjectException("object " + id + " is a " + p.type + " where a " + type
          + " belongs");
    }
    return p;
  }

  private static String body(Map<String, byte[]> objects, String id, Parsed p) {
    return new String(objects.get(id), p.bodyOff, p.bodyLen, StandardCharsets.UTF_8);
  }

  private static LinkedHashMap<String, String> refs(Map<String, byte[]> objects, String id,
      Parsed p) throws BadObjectException {
    LinkedHashMap<String, String> refs;
    try {
      PyJson.Reader r = new PyJson.Reader(body(objects, id, p));
      refs = r.stringMap();
      r.end();
    } catch (IllegalArgumentException e) {
      throw new BadObjectException("object " + id + ": " + e.getMessage());
    }
    if (!new LinkedHashSet<>(refs.values()).equals(new LinkedHashSet<>(p.children))) {
      throw new BadObjectException("object " + id + " refers to other objects than its head");
    }
    return refs;
  }

  private static RecordDict inflateRecordDict(String id, Map<String, byte[]> objects)
      throws BadObjectException {
    Parsed p = parsed(id, objects, "RecordDict");
    LinkedHashMap<String, Record> records = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : refs(objects, id, p).entrySet()) {
      String child = e.getValue();
      byte[] c = objects.get(child);
      if (c == null) {
        throw new BadObjectException("object " + child + " is missing");
      }
      Parsed cp = parse(child, c);
      Record r = switch (cp.type) {
        case "ArrayRecord" -> inflateArrayRecord(child, objects, cp);
        case "MetricRecord" -> Protos.metricRecord(child, c, cp.bodyOff, cp.bodyLen,
            cp.children);
        case "ConfigRecord" -> Protos.configRecord(child, c, cp.bodyOff, cp.bodyLen,
            cp.children);
        default -> throw new BadObjectException("object " + child + " is a " + cp.type
            + " where a record belongs");
      };
      records.put(e.getKey(), r);
    }
    return new RecordDict(records);
  }

  private static ArrayRecord inflateArrayRecord(String id, Map<String, byte[]> objects,
      Parsed p) throws BadObjectException {
    LinkedHashMap<String, Array> arrays = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : refs(objects, id, p).entrySet()) {
      arrays.put(e.getKey(), inflateArray(e.getValue(), objects));
    }
    return new ArrayRecord(arrays);
  }

  private static Array inflateArray(String id, Map<String, byte[]> objects)
      throws BadObjectException {
    Parsed p = parsed(id, objects, "Array");
    String dtype;
    String stype;
    List<Long> shape;
    List<Long> chunkIds;
    try {
      PyJson.Reader r = new PyJson.Reader(body(objects, id, p));
      Map<String, Object> fields = new LinkedHashMap<>();
      String k = r.firstKey();
      for (int n = 0; ; n++) {
        Object v = switch (k) {
          case "dtype", "stype" -> r.string();
          case "shape" -> r.intList(64);
          case "arraychunk_ids" -> r.intList(1 << 20);
          default -> throw new IllegalArgumentException("unknown Array field '" + k + "'");
        };
        if (fields.put(k, v) != null) {
          throw new IllegalArgumentException("duplicate Array field '" + k + "'");
        }
        if (n == 3) {
          break;
        }
        k = r.nextKey();
      }
      r.close();
      r.end();
      dtype = (String) fields.get("dtype");
      stype = (String) fields.get("stype");
      @SuppressWarnings("unchecked") List<Long> s = (List<Long>) fields.get("shape");
      @SuppressWarnings("unchecked") List<Long> ch = (List<Long>) fields.get("arraychunk_ids");
      shape = s;
      chunkIds = ch;
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new BadObjectException("array " + id + ": " + e.getMessage());
    }
    int[] dims = new int[shape.size()];
    for (int i = 0; i < dims.length; i++) {
      long d = shape.get(i);
      if (d < 0 || d > Integer.MAX_VALUE) {
        throw new BadObjectException("array " + id + " has dimension " + d);
      }
      dims[i] = (int) d;
    }
    LinkedHashSet<String> used = new LinkedHashSet<>();
    long total = 0;
    for (long index : chunkIds) {
      if (index < 0 || index >= p.children.size()) {
        throw new BadObjectException("array " + id + " refers to chunk " + index + " of "
            + p.children.size());
      }
      String cid = p.children.get((int) index);
      used.add(cid);
      Parsed cp = parsed(cid, objects, "ArrayChunk");
      if (!cp.children.isEmpty()) {
        throw new BadObjectException("array chunk " + cid + " has children");
      }
      total += cp.bodyLen;
    }
    if (used.size() != p.children.size()) {
      throw new BadObjectException("array " + id + " has unused chunks");
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new BadObjectException("array " + id + " has " + total + " bytes, more than one "
          + "Java array holds");
    }
    byte[] data = new byte[(int) total];
    int at = 0;
    for (long index : chunkIds) {
      String cid = p.children.get((int) index);
      byte[] c = objects.get(cid);
      Parsed cp = parse(cid, c);
      System.arraycopy(c, cp.bodyOff, data, at, cp.bodyLen);
      at += cp.bodyLen;
    }
    return new Array(dtype, dims, stype, data);
  }
}
