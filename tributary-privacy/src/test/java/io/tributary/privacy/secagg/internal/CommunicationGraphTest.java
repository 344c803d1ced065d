package io.tributary.privacy.secagg.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The seeded Harary graph. */
class CommunicationGraphTest {
  @ParameterizedTest(name = "n={0} k={1}")
  @CsvSource({"10,4,4", "10,3,3", "9,3,4", "9,4,4", "5,8,4", "2,1,1", "100,7,7"})
  void harary_anySize_isSymmetricWithTheDocumentedDegree(int n, int k, int degree) {
    CommunicationGraph g = CommunicationGraph.harary(n, k, 42);

    for (int u = 0; u < n; u++) {
      assertThat(g.neighbours(u)).hasSize(degree).doesNotContain(u).isSorted();
      for (int v : g.neighbours(u)) {
        assertThat(g.adjacent(v, u)).isTrue();
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @CsvSource({"1", "2"})
  void harary_sameSeed_sameGraph(long seed) {
    CommunicationGraph a = CommunicationGraph.harary(30, 6, seed);
    CommunicationGraph b = CommunicationGraph.harary(30, 6, seed);
    CommunicationGraph other = CommunicationGraph.harary(30, 6, seed + 100);

    boolean differs = false;
    for (int u = 0; u < 30; u++) {
      assertThat(a.neighbours(u)).isEqualTo(b.neighbours(u));
      differs |= !java.util.Arrays.equals(a.neighbours(u), other.neighbours(u));
    }
    assertThat(differs).isTrue();
  }
}
