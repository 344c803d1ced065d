package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The binary encoding of the messages: a whole round survives it; bad bytes are refused. */
class SecAggWireTest {
  @SuppressWarnings("unchecked")
  private static <T extends SecAggMessage> T roundTrip(T m) {
    return (T) SecAggWire.decode(SecAggWire.encode(m));
  }

  @Test
  void decode_everyMessageOfARound_givesMessagesTheRoundAcceptsAndTheSameSum() {
    int n = 6;
    SecAggSettings s = SecAggSettings.of(4, 3, 10, 5)
        .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(5));
    List<SecAggClient> clients = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      clients.add(new SecAggClient(i, n, s));
    }
    SecAggServer server = new SecAggServer(n, 2, s);

    var dirs = server.collectKeys(clients.stream().map(c -> roundTrip(c.advertiseKeys()))
        .toList());
    var routed = server.collectShares(clients.stream()
        .map(c -> roundTrip(c.shareKeys(roundTrip(dirs.get(c.id()))))).toList());
    var requests = server.collectMaskedInputs(clients.stream().filter(c -> c.id() != 2)
        .map(c -> roundTrip(c.maskedInput(roundTrip(routed.get(c.id())),
            new long[] {c.id(), 1000}))).toList());
    long[] sum = server.collectUnmaskShares(clients.stream().filter(c -> c.id() != 2)
        .map(c -> roundTrip(c.unmask(roundTrip(requests.get(c.id()))))).toList());

    assertThat(sum).containsExactly(13, 5000);
  }

  @Test
  void decode_hugeCount_isRefusedWithoutAllocating() {
    byte[] data = ByteBuffer.allocate(11).put((byte) 'S').put((byte) 2).put((byte) 5).putInt(0)
        .putInt(Integer.MAX_VALUE).array();

    assertThatThrownBy(() -> SecAggWire.decode(data))
        .isInstanceOfSatisfying(SecAggException.class,
            e -> assertThat(e.reason()).isEqualTo(SecAggException.Reason.MALFORMED_MESSAGE))
        .hasMessageContaining("a count of 2147483647");
  }

  @Test
  void decode_truncatedOrTrailingOrWrongKeyLength_isMalformed() {
    byte[] good = SecAggWire.encode(new SecAggMessage.AdvertiseKeys(1, new byte[32],
        new byte[32]));
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
    byte[] shortKey = SecAggWire.encode(new SecAggMessage.UnmaskRequest(1, new int[0],
        new int[] {1}));
    shortKey[2] = 1;

    for (byte[] bad : List.of(java.util.Arrays.copyOf(good, good.length - 1), longer,
        shortKey, new byte[0])) {
      assertThatThrownBy(() -> SecAggWire.decode(bad))
          .isInstanceOfSatisfying(SecAggException.class,
              e -> assertThat(e.reason()).isEqualTo(SecAggException.Reason.MALFORMED_MESSAGE));
    }
  }
}
