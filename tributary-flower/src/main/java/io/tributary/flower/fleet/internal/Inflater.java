package io.tributary.flower.fleet.internal;

import io.tributary.flower.fleet.internal.ObjectCodec.BadObjectException;
import io.tributary.flower.fleet.internal.ObjectCodec.Limits;
import io.tributary.flower.fleet.internal.ObjectCodec.Parsed;
import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.Record;
import io.tributary.flower.records.RecordDict;
import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Inflates one message's objects in two passes. The first measures, without allocating any
 * array data, what the message stands for as its app will see it: the bytes of every array and
 * the entries of every record, counted once per name that refers to them (so a record named 300
 * times counts 300 times), and refuses a message beyond its {@link Limits}. The second builds the
 * records, once per object id: a child object several names refer to becomes one shared
 * {@link Array} or record, never a copy per name.
 */
final class Inflater {
  private final Map<String, byte[]> objects;
  private final Limits limits;
  private final Map<String, Parsed> parsed = new HashMap<>();
  private final Map<String, Size> sizes = new HashMap<>();
  private final Map<String, Record> records = new HashMap<>();
  private final Map<String, Array> arrays = new HashMap<>();

  /** What an object stands for: array bytes and entries, saturating at {@link Long#MAX_VALUE}. */
  private record Size(long bytes, long elements) {
    Size plus(Size o) {
      return new Size(sat(bytes, o.bytes), sat(elements, o.elements));
    }

    static long sat(long a, long b) {
      long r = a + b;
      return r < 0 ? Long.MAX_VALUE : r;
    }
  }

  /** An Array's body. */
  private record ArrayBody(String dtype, int[] shape, String stype, List<Long> chunkIds) {}

  private final Map<String, ArrayBody> arrayBodies = new HashMap<>();

  Inflater(Map<String, byte[]> objects, Limits limits) {
    this.objects = objects;
    this.limits = limits;
  }

  Message inflate(String rootId) throws BadObjectException {
    Parsed p = parsed(rootId, "Message");
    byte[] c = objects.get(rootId);
    io.tributary.flower.fleet.internal.proto.Message proto;
    try {
      proto = io.tributary.flower.fleet.internal.proto.Message.parser().parseFrom(c, p.bodyOff(),
          p.bodyLen());
    } catch (InvalidProtocolBufferException e) {
      throw new BadObjectException("message body is not a protobuf Message: " + e.getMessage());
    }
    Metadata md = Protos.metadata(proto.getMetadata()).withMessageId(rootId);
    if (proto.hasError()) {
      if (!p.children().isEmpty()) {
        throw new BadObjectException("a message with an error has content");
      }
      return Message.ofError(md, Protos.error(proto.getError()));
    }
    if (p.children().size() != 1) {
      throw new BadObjectException("a message has " + p.children().size() + " contents");
    }
    String content = p.children().getFirst();
    Size size = measureRecordDict(content);
    if (size.bytes > limits.maxInflatedBytes()) {
      throw new BadObjectException("the message inflates to " + show(size.bytes)
          + " bytes of arrays, more than the bound of " + limits.maxInflatedBytes());
    }
    if (size.elements > limits.maxElements()) {
      throw new BadObjectException("the message inflates to " + show(size.elements)
          + " entries, more than the bound of " + limits.maxElements());
    }
    return Message.ofContent(md, recordDict(content));
  }

  private static String show(long n) {
    return n == Long.MAX_VALUE ? "more than " + (Long.MAX_VALUE - 1) : Long.toString(n);
  }

  private Parsed parsed(String id, String type) throws BadObjectException {
    Parsed p = parsed.get(id);
    if (p == null) {
      byte[] c = objects.get(id);
      if (c == null) {
        throw new BadObjectException("object " + id + " is missing");
      }
      p = ObjectCodec.parse(id, c);
      parsed.put(id, p);
    }
    if (type != null && !p.type().equals(type)) {
      throw new BadObjectException("object " + id + " is a " + p.type() + " where a " + type
          + " belongs");
    }
    return p;
  }

  private String body(String id, Parsed p) {
    return new String(objects.get(id), p.bodyOff(), p.bodyLen(), StandardCharsets.UTF_8);
  }

  private LinkedHashMap<String, String> refs(String id, Parsed p) throws BadObjectException {
    LinkedHashMap<String, String> refs;
    try {
      PyJson.Reader r = new PyJson.Reader(body(id, p));
      refs = r.stringMap();
      r.end();
    } catch (IllegalArgumentException e) {
      throw new BadObjectException("object " + id + ": " + e.getMessage());
    }
    if (!new LinkedHashSet<>(refs.values()).equals(new LinkedHashSet<>(p.children()))) {
      throw new BadObjectException("object " + id + " refers to other objects than its head");
    }
    return refs;
  }

  // ---------------------------------------------------------------- measuring

  private Size measureRecordDict(String id) throws BadObjectException {
    Size s = sizes.get(id);
    if (s != null) {
      return s;
    }
    Parsed p = parsed(id, "RecordDict");
    s = new Size(0, 0);
    for (String child : refs(id, p).values()) {
      s = s.plus(new Size(0, 1)).plus(measureRecord(child));
    }
    sizes.put(id, s);
    return s;
  }

  private Size measureRecord(String id) throws BadObjectException {
    Size s = sizes.get(id);
    if (s != null) {
      return s;
    }
    Parsed p = parsed(id, null);
    s = switch (p.type()) {
      case "ArrayRecord" -> {
        Size t = new Size(0, 0);
        for (String child : refs(id, p).values()) {
          t = t.plus(new Size(0, 1)).plus(measureArray(child));
        }
        yield t;
      }
      // the items of a metric or config record are built here, once: they are no larger than
      // the pulled bytes of the one object that holds them
      case "MetricRecord", "ConfigRecord" -> new Size(0, switch (record(id)) {
        case MetricRecord m -> m.size();
        case ConfigRecord m -> m.size();
        case ArrayRecord m -> m.arrays().size();
      });
      default -> throw new BadObjectException("object " + id + " is a " + p.type()
          + " where a record belongs");
    };
    sizes.put(id, s);
    return s;
  }

  private Size measureArray(String id) throws BadObjectException {
    Size s = sizes.get(id);
    if (s != null) {
      return s;
    }
    Parsed p = parsed(id, "Array");
    ArrayBody a = arrayBody(id, p);
    long bytes = 0;
    LinkedHashSet<String> used = new LinkedHashSet<>();
    for (long index : a.chunkIds) {
      if (index < 0 || index >= p.children().size()) {
        throw new BadObjectException("array " + id + " refers to chunk " + index + " of "
            + p.children().size());
      }
      String cid = p.children().get((int) index);
      used.add(cid);
      Parsed cp = parsed(cid, "ArrayChunk");
      if (!cp.children().isEmpty()) {
        throw new BadObjectException("array chunk " + cid + " has children");
      }
      bytes = Size.sat(bytes, cp.bodyLen());
    }
    if (used.size() != p.children().size()) {
      throw new BadObjectException("array " + id + " has unused chunks");
    }
    s = new Size(bytes, a.chunkIds.size());
    sizes.put(id, s);
    return s;
  }

  private ArrayBody arrayBody(String id, Parsed p) throws BadObjectException {
    ArrayBody cached = arrayBodies.get(id);
    if (cached != null) {
      return cached;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    try {
      PyJson.Reader r = new PyJson.Reader(body(id, p));
      String k = r.firstKey();
      for (int n = 0; ; n++) {
        Object v = switch (k) {
          case "dtype", "stype" -> r.string();
          case "shape" -> r.intList(64);
          case "arraychunk_ids" -> r.intList(1 << 20);
          default -> throw new IllegalArgumentException("unknown Array field '"
              + ObjectCodec.clip(k) + "'");
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
    } catch (IllegalArgumentException e) {
      throw new BadObjectException("array " + id + ": " + e.getMessage());
    }
    if (fields.size() != 4) {
      throw new BadObjectException("array " + id + " lacks a field");
    }
    @SuppressWarnings("unchecked") List<Long> shape = (List<Long>) fields.get("shape");
    @SuppressWarnings("unchecked") List<Long> chunks = (List<Long>) fields.get("arraychunk_ids");
    int[] dims = new int[shape.size()];
    for (int i = 0; i < dims.length; i++) {
      long d = shape.get(i);
      if (d < 0 || d > Integer.MAX_VALUE) {
        throw new BadObjectException("array " + id + " has dimension " + d);
      }
      dims[i] = (int) d;
    }
    ArrayBody a = new ArrayBody((String) fields.get("dtype"), dims, (String) fields.get("stype"),
        chunks);
    arrayBodies.put(id, a);
    return a;
  }

  // ---------------------------------------------------------------- building

  private RecordDict recordDict(String id) throws BadObjectException {
    Parsed p = parsed(id, "RecordDict");
    LinkedHashMap<String, Record> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : refs(id, p).entrySet()) {
      out.put(e.getKey(), record(e.getValue()));
    }
    return new RecordDict(out);
  }

  private Record record(String id) throws BadObjectException {
    Record r = records.get(id);
    if (r != null) {
      return r;
    }
    Parsed p = parsed(id, null);
    byte[] c = objects.get(id);
    r = switch (p.type()) {
      case "ArrayRecord" -> {
        LinkedHashMap<String, Array> m = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : refs(id, p).entrySet()) {
          m.put(e.getKey(), array(e.getValue()));
        }
        yield new ArrayRecord(m);
      }
      case "MetricRecord" -> Protos.metricRecord(id, c, p.bodyOff(), p.bodyLen(), p.children());
      case "ConfigRecord" -> Protos.configRecord(id, c, p.bodyOff(), p.bodyLen(), p.children());
      default -> throw new BadObjectException("object " + id + " is a " + p.type()
          + " where a record belongs");
    };
    records.put(id, r);
    return r;
  }

  private Array array(String id) throws BadObjectException {
    Array a = arrays.get(id);
    if (a != null) {
      return a;
    }
    Parsed p = parsed(id, "Array");
    ArrayBody body = arrayBody(id, p);
    long total = measureArray(id).bytes;
    if (total > Integer.MAX_VALUE - 16) {
      throw new BadObjectException("array " + id + " has " + total + " bytes, more than one "
          + "Java array holds");
    }
    byte[] data = new byte[(int) total];
    int at = 0;
    for (long index : body.chunkIds) {
      String cid = p.children().get((int) index);
      Parsed cp = parsed(cid, "ArrayChunk");
      System.arraycopy(objects.get(cid), cp.bodyOff(), data, at, cp.bodyLen());
      at += cp.bodyLen();
    }
    a = new Array(body.dtype, body.shape, body.stype, data);
    arrays.put(id, a);
    return a;
  }
}
