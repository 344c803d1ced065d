package io.tributary.ui.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;

/**
 * Fuzzes the live page's request reader: any bytes read as a request head or fail with {@link
 * RequestHead.Refused} (a status to answer) or an {@link IOException} (the connection ended);
 * the access check decides on any head that reads, with or without a token.
 */
class RequestHeadFuzzTest {
  private static final Access LOOPBACK = new Access(Optional.empty());
  private static final Access TOKEN = new Access(Optional.of("abcdefghijklmnopqrstuvwxyz"));

  @FuzzTest(maxDuration = "5s")
  void read(byte[] input) {
    RequestHead head;
    try {
      head = RequestHead.read(new ByteArrayInputStream(input), PageServer.MAX_HEAD_BYTES,
          System.nanoTime() + 60_000_000_000L);
    } catch (RequestHead.Refused e) {
      assertThat(e.status()).isIn(400, 431, 505);
      return;
    } catch (IOException e) {
      return;
    }
    assertThat(head.path()).startsWith("/");
    assertThat(head.headers().size()).isLessThanOrEqualTo(RequestHead.MAX_HEADERS);
    assertThat(LOOPBACK.check(head)).isNotNull();
    assertThat(TOKEN.check(head)).isNotNull();
  }
}
