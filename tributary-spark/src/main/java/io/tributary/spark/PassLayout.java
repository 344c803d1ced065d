package io.tributary.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * How a pass's groups are cut for its two stages: the combined ranges, whose parts the driver
 * receives, and the tasks that compute the groups, each inside one combined range.
 *
 * <p>The combined ranges are aligned with the pass's reduction tree: every one but the last
 * covers {@code 2^shift} groups starting at a multiple of {@code 2^shift}, which is one complete
 * subtree, so the driver receives one partial per combined range (the last may hold a few). They
 * depend on the groups and the combined count only, never on the tasks, so neither do the bytes
 * the driver receives.
 *
 * @param combined the ranges whose parts reach the driver, in order
 * @param tasks the ranges the first stage computes, in order, each inside one combined range
 * @param shift the combined ranges' size is {@code 2^shift} groups (the last may be smaller)
 */
record PassLayout(List<GroupRange> combined, List<GroupRange> tasks, int shift) {
  PassLayout {
    combined = List.copyOf(combined);
    tasks = List.copyOf(tasks);
  }

  /**
   * The layout of {@code groups} groups in about {@code tasks} tasks combined into at most
   * {@code combine} parts (and at most {@code tasks}).
   *
   * @throws IllegalArgumentException when {@code groups < 0}, or {@code tasks} or
   *     {@code combine} is below 1
   */
  static PassLayout of(long groups, int tasks, int combine) {
    return of(groups, tasks, combine, 0);
  }

  /**
   * Like {@link #of(long, int, int)}, with combined ranges of at least {@code 2^minShift}
   * groups: with edges that are the nodes of level {@code minShift} of the pass's tree, no edge
   * is split between combined ranges, so each edge's aggregate is completed on one executor.
   *
   * @throws IllegalArgumentException also when {@code minShift} is not in {@code [0, 62]}
   */
  static PassLayout of(long groups, int tasks, int combine, int minShift) {
    if (groups < 0 || tasks < 1 || combine < 1 || minShift < 0 || minShift > 62) {
      throw new IllegalArgumentException("no layout of " + groups + " groups in " + tasks
          + " tasks combined into " + combine + " (ranges of 2^" + minShift + " groups at least)");
    }
    int target = Math.min(tasks, combine);
    int shift = minShift;
    while (((groups + (1L << shift) - 1) >> shift) > target) {
      shift++;
    }
    long size = 1L << shift;
    List<GroupRange> combined = new ArrayList<>();
    for (long from = 0; from < groups; from += size) {
      combined.add(new GroupRange(from, Math.min(groups, from + size)));
    }
    int per = combined.isEmpty() ? 0 : (tasks + combined.size() - 1) / combined.size();
    List<GroupRange> cut = new ArrayList<>();
    for (GroupRange c : combined) {
      for (GroupRange r : GroupRange.cut(c.to() - c.from(), per)) {
        cut.add(new GroupRange(c.from() + r.from(), c.from() + r.to()));
      }
    }
    return new PassLayout(combined, cut, shift);
  }

  /** Whether the tasks are the combined ranges themselves, so there is nothing to combine. */
  boolean single() {
    return tasks.size() == combined.size();
  }
}
