package io.tributary.flower.fleet.server.internal;

import io.tributary.flower.fleet.server.FleetLimits;

import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.records.Message;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One reply's objects as a node pushes them: the tree it announced, bounded before anything is
 * kept, each object checked against its id as it arrives, and the message inflated once all are
 * there, its arrays bounded before they are put together.
 */
final class ReplyAssembly {
  private final String rootId;
  private final ObjectTree tree;
  private final Set<String> needed;
  private final Map<String, byte[]> got = new HashMap<>();
  private final FleetLimits limits;
  private long bytes;

  private ReplyAssembly(String rootId, ObjectTree tree, Set<String> needed, FleetLimits limits) {
    this.rootId = rootId;
    this.tree = tree;
    this.needed = needed;
    this.limits = limits;
  }

  /**
   * The assembly of the reply whose tree is {@code tree}.
   *
   * @throws MessageApi.BadReply if the tree names more objects than allowed, is deeper than
   *     allowed, or names something that is not an object id
   */
  static ReplyAssembly of(ObjectTree tree, FleetLimits limits) throws MessageApi.BadReply {
    Set<String> ids = new LinkedHashSet<>();
    Deque<ObjectTree> todo = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    todo.push(tree);
    depths.push(1);
    int nodes = 0;
    while (!todo.isEmpty()) {
      ObjectTree t = todo.pop();
      int depth = depths.pop();
      if (++nodes > limits.maxReplyObjects()) {
        throw new MessageApi.BadReply("the reply's object tree names more than "
            + limits.maxReplyObjects() + " objects");
      }
      if (depth > FleetLimits.MAX_TREE_DEPTH) {
        throw new MessageApi.BadReply("the reply's object tree is deeper than "
            + FleetLimits.MAX_TREE_DEPTH);
      }
      if (!isObjectId(t.getObjectId())) {
        throw new MessageApi.BadReply("the reply's object tree names an invalid object id");
      }
      ids.add(t.getObjectId());
      for (ObjectTree c : t.getChildrenList()) {
        todo.push(c);
        depths.push(depth + 1);
      }
    }
    return new ReplyAssembly(tree.getObjectId(), tree, ids, limits);
  }

  static boolean isObjectId(String s) {
    if (s.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** The ids of the objects the node is to push: every object of the reply. */
  Set<String> needed() {
    return needed;
  }

  /** Whether {@code id} belongs to this reply and has not arrived yet. */
  boolean wants(String id) {
    return needed.contains(id) && !got.containsKey(id);
  }

  /**
   * Keeps an object of the reply.
   *
   * @return true once every object is there
   * @throws MessageApi.BadReply if the object is too large, the reply's objects exceed their
   *     bound, or the content does not hash to the id
   */
  boolean add(String id, byte[] content) throws MessageApi.BadReply {
    if (content.length > limits.maxObjectBytes()) {
      throw new MessageApi.BadReply("object " + id + " is " + content.length + " bytes, over "
          + "the limit of " + limits.maxObjectBytes());
    }
    if (bytes + content.length > limits.maxReplyBytes()) {
      throw new MessageApi.BadReply("the reply's objects exceed the limit of "
          + limits.maxReplyBytes() + " bytes");
    }
    if (!ObjectCodec.objectId(content).equals(id)) {
      throw new MessageApi.BadReply("object " + id + " does not hash to its id");
    }
    got.put(id, content);
    bytes += content.length;
    return got.size() == needed.size();
  }

  /** Bytes received so far. */
  long bytes() {
    return bytes;
  }

  /**
   * The reply, once every object is there.
   *
   * @throws MessageApi.BadReply if the tree disagrees with the objects' heads, an array would
   *     put together more bytes than a reply may hold, or the objects do not form a message
   */
  Message message() throws MessageApi.BadReply {
    try {
      ObjectCodec.checkTree(tree, got);
      boundArrays();
      return ObjectCodec.inflate(rootId, got);
    } catch (ObjectCodec.BadObjectException e) {
      throw new MessageApi.BadReply("the reply's objects do not form a message: "
          + e.getMessage());
    }
  }

  /**
   * Refuses an amplified array: one whose chunk list repeats chunks so that putting it together
   * would take more than a reply's byte limit. The bound is the entries of its body's top-level
   * {@code arraychunk_ids} list times its largest chunk.
   */
  private void boundArrays() throws MessageApi.BadReply {
    long total = 0;
    for (var e : got.entrySet()) {
      byte[] c = e.getValue();
      int zero = indexOfZero(c);
      if (zero < 0) {
        continue;
      }
      String head = new String(c, 0, zero, StandardCharsets.UTF_8);
      if (!head.startsWith("Array ")) {
        continue;
      }
      String[] parts = head.split(" ", -1);
      long largest = 0;
      if (parts.length == 3 && !parts[1].isEmpty()) {
        for (String child : parts[1].split(",", -1)) {
          byte[] cc = got.get(child);
          if (cc != null) {
            largest = Math.max(largest, cc.length);
          }
        }
      }
      long entries = chunkEntries(c, zero + 1);
      total += entries * largest;
      if (total > limits.maxReplyBytes() + (long) got.size() * 1024) {
        throw new MessageApi.BadReply("the reply's arrays would put together more than "
            + limits.maxReplyBytes() + " bytes (chunks listed repeatedly)");
      }
    }
  }

  /**
   * The entries of the top-level {@code arraychunk_ids} list of the JSON object at {@code from}
   * (its commas plus one; 0 for an empty list, and an upper bound on every list when the body is
   * not such an object, so that a malformed body is bounded too: inflating refuses it later).
   */
  static long chunkEntries(byte[] c, int from) {
    int depth = 0;
    String lastString = null;
    boolean inTarget = false;
    long entries = 0;
    long allCommas = 1;
    for (int i = from; i < c.length; i++) {
      byte b = c[i];
      if (b == '"') {
        int start = i + 1;
        for (i = start; i < c.length && c[i] != '"'; i++) {
          if (c[i] == '\\') {
            i++;
          }
        }
        lastString = new String(c, start, Math.max(0, Math.min(i, c.length) - start),
            StandardCharsets.UTF_8);
        continue;
      }
      if (b == ',') {
        allCommas++;
        if (inTarget && depth == 2) {
          entries++;
        }
      } else if (b == '[' || b == '{') {
        depth++;
        if (b == '[' && depth == 2 && "arraychunk_ids".equals(lastString)) {
          inTarget = true;
          entries = 1;
        }
      } else if (b == ']' || b == '}') {
        if (inTarget && depth == 2) {
          return isEmptyList(c, i) ? 0 : entries;
        }
        depth--;
      } else if (b != ':' && b != ' ' && b != '\n' && b != '\t' && b != '\r') {
        if (depth == 1) {
          lastString = null;
        }
      }
    }
    return allCommas;
  }

  private static boolean isEmptyList(byte[] c, int close) {
    for (int i = close - 1; i >= 0; i--) {
      if (c[i] == '[') {
        return true;
      }
      if (c[i] != ' ' && c[i] != '\n' && c[i] != '\t' && c[i] != '\r') {
        return false;
      }
    }
    return false;
  }

  private static int indexOfZero(byte[] c) {
    for (int i = 0; i < Math.min(c.length, 1 << 20); i++) {
      if (c[i] == 0) {
        return i;
      }
    }
    return -1;
  }
}
