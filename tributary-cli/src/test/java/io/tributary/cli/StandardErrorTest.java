package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher hand-off of stderr: with no or a bad descriptor nothing is touched (the real move,
 * onto descriptor 2, is exercised by .ci/run's smoke tests through ./tributary).
 */
class StandardErrorTest {
  @AfterEach
  void clear() {
    System.clearProperty(StandardError.FD_PROPERTY);
  }

  @Test
  void reclaim_withoutTheProperty_doesNothing() {
    assertThat(StandardError.reclaim()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "x", "2", "1", "0", "-5"})
  void reclaim_unusableDescriptor_doesNothing(String fd) {
    System.setProperty(StandardError.FD_PROPERTY, fd);
    assertThat(StandardError.reclaim()).isFalse();
  }
}
