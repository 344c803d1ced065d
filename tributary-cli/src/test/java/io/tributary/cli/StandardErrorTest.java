package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
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
  void reclaimInBackground_withoutTheProperty_doesNothing() {
    PrintStream before = System.err;
    assertThat(StandardError.reclaimInBackground()).isFalse();
    assertThat(System.err).isSameAs(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "x", "2", "1", "0", "-5"})
  void reclaimInBackground_unusableDescriptor_doesNothing(String fd) {
    PrintStream before = System.err;
    System.setProperty(StandardError.FD_PROPERTY, fd);
    assertThat(StandardError.reclaimInBackground()).isFalse();
    assertThat(System.err).isSameAs(before);
  }

  @Test
  void gate_closed_holdsWritesUntilOpenedThenPassesThemInOrder() throws Exception {
    ByteArrayOutputStream target = new ByteArrayOutputStream();
    CountDownLatch open = new CountDownLatch(1);
    PrintStream gated = new PrintStream(new StandardError.Gate(target, open), true,
        StandardCharsets.UTF_8);
    Thread writer = new Thread(() -> {
      gated.println("first");
      gated.println("second");
    });
    writer.start();
    writer.join(200);

    assertThat(writer.isAlive()).isTrue();
    assertThat(target.size()).isZero();

    open.countDown();
    writer.join(5_000);
    gated.print("third");
    gated.flush();

    assertThat(writer.isAlive()).isFalse();
    assertThat(target.toString(StandardCharsets.UTF_8))
        .isEqualTo("first" + System.lineSeparator() + "second" + System.lineSeparator() + "third");
  }
}
