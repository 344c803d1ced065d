package io.tributary.runtime.executor.internal.aggregation;

import io.tributary.runtime.ReductionTree;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * One edge's part of a client pass: the complete subtrees of the edge's own reduction tree
 * (one leaf per client of the edge, in the edge's client order) over a run of its leaves.
 *
 * <p>A leaf whose client contributed nothing (it failed, or it lies in another group's range
 * and was never seen here) is empty, {@code null}; combining with an empty node gives the other
 * node unchanged. So a node's value depends only on which of its leaves hold a client and on the
 * fixed shape of the edge's tree, never on how the pass cut the clients into groups or workers:
 * any pass over the same edge's clients, in the same order, with the same failures, gives the
 * same bits, whether it covers only that edge (a relay's pass) or a whole population.
 */
final class EdgeFold {
  private final BinaryOperator<Object> combine;
  private final long start;
  private long next;
  private final Deque<ReductionTree.Node<Object>> stack = new ArrayDeque<>();

  /** An empty run that starts at leaf {@code start}. */
  EdgeFold(long start, BinaryOperator<Object> combine) {
    this.start = start;
    this.next = start;
    this.combine = combine;
  }

  /** The first leaf of the run. */
  long start() {
    return start;
  }

  /** The leaf after the run. */
  long next() {
    return next;
  }

  /** The run's complete subtrees, left to right. */
  List<ReductionTree.Node<Object>> subtrees() {
    List<ReductionTree.Node<Object>> out = new ArrayList<>(stack);
    java.util.Collections.reverse(out);
    return out;
  }

  /** Adds {@code value} as leaf {@code leaf}, the leaves before it (from {@link #next}) empty. */
  void add(long leaf, Object value) {
    skipTo(leaf);
    push(new ReductionTree.Node<>(0, leaf, value));
    next = leaf + 1;
  }

  /** Adds empty leaves up to {@code leaf} (exclusive), as a few aligned empty subtrees. */
  void skipTo(long leaf) {
    if (leaf < next) {
      throw new IllegalArgumentException("leaf " + leaf + " is before the run's next leaf " + next);
    }
    while (next < leaf) {
      int level = Long.numberOfTrailingZeros(next == 0 ? Long.highestOneBit(leaf) : next);
      while (level > 0 && next + (1L << level) > leaf) {
        level--;
      }
      push(new ReductionTree.Node<>(level, next >> level, null));
      next += 1L << level;
    }
  }

  /**
   * Appends the subtrees of a later run (its first leaf at or after {@link #next}), the leaves
   * between them empty: the same combinations as adding every leaf of both runs in order.
   *
   * @throws IllegalArgumentException when a subtree is not aligned where it falls
   */
  void append(EdgeFold later) {
    skipTo(later.start);
    for (ReductionTree.Node<Object> n : later.subtrees()) {
      addSubtree(n);
    }
  }

  /**
   * Appends one complete subtree starting at {@link #next}.
   *
   * @throws IllegalArgumentException when it does not start there
   */
  void addSubtree(ReductionTree.Node<Object> n) {
    if (n.firstLeaf() != next) {
      throw new IllegalArgumentException("subtree (" + n.level() + ", " + n.index()
          + ") does not start at leaf " + next);
    }
    push(n);
    next += 1L << n.level();
  }

  /**
   * The root of the edge's tree over {@code leaves} leaves, the leaves after the run empty; the
   * run must start at leaf 0. {@code null} when no leaf holds a client.
   */
  Object root(long leaves) {
    skipTo(leaves);
    return new ReductionTree<>(leaves, combine).merge(subtrees());
  }

  private void push(ReductionTree.Node<Object> node) {
    ReductionTree.Node<Object> top = node;
    while (!stack.isEmpty() && stack.peek().level() == top.level()
        && stack.peek().index() + 1 == top.index() && top.index() % 2 == 1) {
      ReductionTree.Node<Object> left = stack.pop();
      top = new ReductionTree.Node<>(top.level() + 1, left.index() / 2,
          combine.apply(left.value(), top.value()));
    }
    stack.push(top);
  }

  /** {@code inner}'s combine with empty nodes passed over. */
  static BinaryOperator<Object> skippingEmpty(Sink inner) {
    return (a, b) -> a == null ? b : b == null ? a : inner.combine(a, b);
  }
}
