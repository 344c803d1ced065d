package io.tributary.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * The fixed reduction tree over a pass's leaves (chunks of consecutive client positions) that
 * decides the order in which partial results are combined, whoever computes them.
 *
 * <p>Level 0 holds the leaves in order; node {@code (L, i)} combines {@code (L-1, 2i)} with
 * {@code (L-1, 2i+1)}, and an odd node at the end of a level moves up unchanged. Because the
 * shape depends only on the number of leaves, a result is bit-identical whether one thread, many
 * threads or many machines computed the leaves: a worker folds the leaves of its range with
 * {@link Folder} and returns only the complete subtrees inside it (O(log n) of them), and
 * {@link #merge} combines subtrees from anywhere by the same rule.
 *
 * @param <T> the partial results; {@code combine(left, right)} may update and return {@code left}
 */
public final class ReductionTree<T> {
  /** A complete subtree: {@code level} 0 is a leaf, and {@code index} counts along the level. */
  public record Node<T>(int level, long index, T value) {
    /** A subtree of {@code 2^level} leaves starting at leaf {@code index << level}. */
    public Node {
      if (level < 0 || level > 62 || index < 0) {
        throw new IllegalArgumentException("no tree node (" + level + ", " + index + ")");
      }
    }

    /** The first leaf under this node. */
    public long firstLeaf() {
      return index << level;
    }
  }

  private final long leaves;
  private final BinaryOperator<T> combine;

  /**
   * A tree over {@code leaves} leaves combined with {@code combine}.
   *
   * @throws IllegalArgumentException when {@code leaves} is negative
   */
  public ReductionTree(long leaves, BinaryOperator<T> combine) {
    if (leaves < 0) {
      throw new IllegalArgumentException("a reduction tree needs a leaf count >= 0, got " + leaves);
    }
    this.leaves = leaves;
    this.combine = Objects.requireNonNull(combine, "combine");
  }

  /** The number of leaves. */
  public long leaves() {
    return leaves;
  }

  /** The number of nodes on {@code level}: the leaves halved, rounding up, level times. */
  long width(int level) {
    long w = leaves;
    for (int l = 0; l < level; l++) {
      w = (w + 1) / 2;
    }
    return w;
  }

  private int height() {
    int h = 0;
    while (width(h) > 1) {
      h++;
    }
    return h;
  }

  /** A folder for the leaves {@code from} (inclusive) to {@code to} (exclusive), in order. */
  public Folder<T> folder(long from, long to) {
    if (from < 0 || to < from || to > leaves) {
      throw new IllegalArgumentException("leaf range [" + from + ", " + to + ") is not inside [0, "
          + leaves + ")");
    }
    return new Folder<>(from, to, combine);
  }

  /**
   * The root: the subtrees (from any number of workers, in any order) combined by the tree's
   * rule. Together they must cover every leaf exactly once.
   *
   * @return {@code null} when the tree has no leaves
   * @throws IllegalArgumentException when a subtree is not in the tree, two overlap, or a leaf is
   *     missing
   */
  public T merge(List<Node<T>> subtrees) {
    Map<Long, Node<T>> byKey = new HashMap<>();
    for (Node<T> n : subtrees) {
      if (n.index() >= width(n.level()) || n.firstLeaf() >= leaves) {
        throw new IllegalArgumentException("subtree (" + n.level() + ", " + n.index()
            + ") is not in a tree of " + leaves + " leaves");
      }
      if (byKey.put(key(n.level(), n.index()), n) != null) {
        throw new IllegalArgumentException("subtree (" + n.level() + ", " + n.index()
            + ") was given twice");
      }
    }
    if (leaves == 0) {
      if (!subtrees.isEmpty()) {
        throw new IllegalArgumentException("a tree without leaves takes no subtrees");
      }
      return null;
    }
    int[] used = {0};
    T root = node(height(), 0, byKey, used);
    if (used[0] != byKey.size()) {
      throw new IllegalArgumentException("the subtrees overlap: " + (byKey.size() - used[0])
          + " of them lie inside others");
    }
    return root;
  }

  private T node(int level, long index, Map<Long, Node<T>> given, int[] used) {
    Node<T> n = given.get(key(level, index));
    if (n != null) {
      used[0]++;
      return n.value();
    }
    if (level == 0) {
      throw new IllegalArgumentException("leaf " + index + " is missing from the subtrees");
    }
    T left = node(level - 1, 2 * index, given, used);
    if (2 * index + 1 >= width(level - 1)) {
      return left;
    }
    return combine.apply(left, node(level - 1, 2 * index + 1, given, used));
  }

  private static long key(int level, long index) {
    return ((long) level << 56) | index;
  }

  /**
   * Folds consecutive leaves into the complete subtrees they form, keeping O(log n) partials:
   * two neighbours {@code (L, 2i)} and {@code (L, 2i+1)} are combined as soon as both exist.
   */
  public static final class Folder<T> {
    private final long to;
    private final BinaryOperator<T> combine;
    private final Deque<Node<T>> stack = new ArrayDeque<>();
    private long next;

    private Folder(long from, long to, BinaryOperator<T> combine) {
      this.next = from;
      this.to = to;
      this.combine = combine;
    }

    /**
     * Adds the next leaf of the range.
     *
     * @throws IllegalStateException when every leaf of the range was added already
     */
    public void add(T leaf) {
      if (next >= to) {
        throw new IllegalStateException("leaf " + next + " is past the folder's range");
      }
      push(new Node<>(0, next++, leaf));
    }

    /**
     * Adds the next {@code 2^level} leaves at once, as the complete subtree another folder
     * made of them: the subtrees of consecutive ranges, added in order, fold into the subtrees
     * of their union, with the same combinations (and so the same bits) as adding every leaf.
     *
     * @throws IllegalArgumentException when the subtree does not start at {@link #nextLeaf} or
     *     reaches past the folder's range
     */
    public void addSubtree(Node<T> subtree) {
      long first = subtree.firstLeaf();
      if (first != next || subtree.level() >= 63 || (1L << subtree.level()) > to - next) {
        throw new IllegalArgumentException("subtree (" + subtree.level() + ", "
            + subtree.index() + ") is not the next part of leaves [" + next + ", " + to + ")");
      }
      next += 1L << subtree.level();
      push(subtree);
    }

    private void push(Node<T> node) {
      Node<T> top = node;
      while (!stack.isEmpty() && stack.peek().level() == top.level()
          && stack.peek().index() + 1 == top.index() && top.index() % 2 == 1) {
        Node<T> left = stack.pop();
        top = new Node<>(top.level() + 1, left.index() / 2,
            combine.apply(left.value(), top.value()));
      }
      stack.push(top);
    }

    /** The next leaf {@link #add} expects. */
    public long nextLeaf() {
      return next;
    }

    /**
     * The complete subtrees of the leaves added, left to right.
     *
     * @throws IllegalStateException when leaves of the range were not added
     */
    public List<Node<T>> subtrees() {
      if (next != to) {
        throw new IllegalStateException((to - next) + " leaves of the range were not added");
      }
      List<Node<T>> out = new ArrayList<>(stack);
      java.util.Collections.reverse(out);
      return out;
    }
  }
}
