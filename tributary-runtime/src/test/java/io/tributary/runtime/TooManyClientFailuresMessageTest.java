package io.tributary.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stop message names a whole number of clients, never a fraction of one. */
class TooManyClientFailuresMessageTest {
  @Test
  void message_anyOneClientRequired_saysOne() {
    String m = new TooManyClientFailuresException("federated_sum", 4, Double.MIN_VALUE,
        List.of()).getMessage();

    assertThat(m).contains("where at least one of them must").doesNotContain("E-324");
  }

  @Test
  void message_fractionalCountRequired_roundsUp() {
    String m = new TooManyClientFailuresException("federated_sum", 10, 2.5, List.of())
        .getMessage();

    assertThat(m).contains("where at least 3 of them must");
  }
}
