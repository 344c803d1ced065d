package io.tributary.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups {@code [from, to)} of a pass, what one Spark task computes.
 *
 * @param from the first group
 * @param to one past the last group
 */
record GroupRange(long from, long to) implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * Cuts groups {@code [0, groups)} into at most {@code parts} ranges of consecutive groups, in
   * order, their sizes differing by at most one (the first ones larger); none is empty.
   *
   * @throws IllegalArgumentException when {@code groups < 0} or {@code parts < 1}
   */
  static List<GroupRange> cut(long groups, int parts) {
    if (groups < 0 || parts < 1) {
      throw new IllegalArgumentException("cannot cut " + groups + " groups into " + parts
          + " parts");
    }
    int count = (int) Math.min(groups, parts);
    List<GroupRange> out = new ArrayList<>(count);
    long from = 0;
    for (int p = 0; p < count; p++) {
      long size = groups / count + (p < groups % count ? 1 : 0);
      out.add(new GroupRange(from, from + size));
      from += size;
    }
    return out;
  }
}
