package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReductionTreeTest {
  /** The tree written out level by level, as the rule says, to compare with. */
  private static String byLevels(int leaves) {
    List<String> level = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      level.add(Integer.toString(i));
    }
    while (level.size() > 1) {
      List<String> up = new ArrayList<>();
      for (int i = 0; i < level.size(); i += 2) {
        up.add(i + 1 < level.size() ? "(" + level.get(i) + "+" + level.get(i + 1) + ")"
            : level.get(i));
      }
      level = up;
    }
    return level.isEmpty() ? null : level.get(0);
  }

  private static String fold(ReductionTree<String> tree, long from, long to) {
    ReductionTree.Folder<String> f = tree.folder(from, to);
    for (long i = from; i < to; i++) {
      f.add(Long.toString(i));
    }
    return tree.merge(f.subtrees());
  }

  private static ReductionTree<String> tree(int leaves) {
    return new ReductionTree<>(leaves, (a, b) -> "(" + a + "+" + b + ")");
  }

  @Test
  void merge_oneFolderOverEveryLeaf_givesTheTreeOfTheRule() {
    for (int n = 0; n <= 70; n++) {
      assertThat(fold(tree(n), 0, n)).as("%d leaves", n).isEqualTo(byLevels(n));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 8, 13, 64, 100, 257})
  void merge_subtreesOfAnyPartition_givesTheSameTree(int n) {
    Random random = new Random(n);
    ReductionTree<String> tree = tree(n);
    for (int trial = 0; trial < 20; trial++) {
      int parts = 1 + random.nextInt(Math.min(n, 9));
      List<Integer> cuts = new ArrayList<>(List.of(0, n));
      while (cuts.size() < parts + 1) {
        int c = 1 + random.nextInt(Math.max(1, n - 1));
        if (!cuts.contains(c) && c < n) {
          cuts.add(c);
        }
      }
      cuts.sort(null);
      List<ReductionTree.Node<String>> subtrees = new ArrayList<>();
      for (int p = cuts.size() - 2; p >= 0; p--) {
        ReductionTree.Folder<String> f = tree.folder(cuts.get(p), cuts.get(p + 1));
        for (int i = cuts.get(p); i < cuts.get(p + 1); i++) {
          f.add(Integer.toString(i));
        }
        subtrees.addAll(f.subtrees());
      }
      assertThat(tree.merge(subtrees)).as("cuts %s", cuts).isEqualTo(byLevels(n));
    }
  }

  @Test
  void subtrees_aRangeOfLeaves_keepsOnlyMaximalAlignedNodes() {
    ReductionTree.Folder<String> f = tree(16).folder(2, 8);
    for (int i = 2; i < 8; i++) {
      f.add(Integer.toString(i));
    }
    assertThat(f.subtrees()).extracting(ReductionTree.Node::level, ReductionTree.Node::index)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 1L),
            org.assertj.core.groups.Tuple.tuple(2, 1L));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 16, 100, 257})
  void addSubtree_foldersOfConsecutiveRanges_giveTheUnionsSubtrees(int n) {
    Random random = new Random(n);
    ReductionTree<String> tree = tree(n);
    for (int trial = 0; trial < 20; trial++) {
      int a = random.nextInt(n);
      int b = a + random.nextInt(n - a + 1);
      int c = b + random.nextInt(n - b + 1);
      ReductionTree.Folder<String> whole = tree.folder(a, c);
      for (int i = a; i < c; i++) {
        whole.add(Integer.toString(i));
      }
      ReductionTree.Folder<String> joined = tree.folder(a, c);
      for (int[] range : new int[][] {{a, b}, {b, c}}) {
        ReductionTree.Folder<String> f = tree.folder(range[0], range[1]);
        for (int i = range[0]; i < range[1]; i++) {
          f.add(Integer.toString(i));
        }
        f.subtrees().forEach(joined::addSubtree);
      }
      assertThat(joined.subtrees()).as("[%d, %d) + [%d, %d)", a, b, b, c)
          .isEqualTo(whole.subtrees());
    }
  }

  @Test
  void addSubtree_notTheNextLeaves_isRefused() {
    ReductionTree.Folder<String> f = tree(16).folder(2, 8);
    assertThatThrownBy(() -> f.addSubtree(new ReductionTree.Node<>(1, 2, "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the next");
    f.addSubtree(new ReductionTree.Node<>(1, 1, "x"));
    assertThatThrownBy(() -> f.addSubtree(new ReductionTree.Node<>(3, 0, "y")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the next");
    assertThatThrownBy(() -> f.addSubtree(new ReductionTree.Node<>(3, 1, "y")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the next");
  }

  @Test
  void merge_missingOrOverlappingSubtrees_isRefused() {
    ReductionTree<String> tree = tree(4);
    assertThatThrownBy(() -> tree.merge(List.of(new ReductionTree.Node<>(1, 0, "a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaf 2 is missing");
    assertThatThrownBy(() -> tree.merge(List.of(new ReductionTree.Node<>(2, 0, "a"),
        new ReductionTree.Node<>(0, 1, "b"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    assertThatThrownBy(() -> tree.merge(List.of(new ReductionTree.Node<>(0, 4, "a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not in a tree");
    assertThatThrownBy(() -> tree.folder(1, 5)).isInstanceOf(IllegalArgumentException.class);
  }
}
