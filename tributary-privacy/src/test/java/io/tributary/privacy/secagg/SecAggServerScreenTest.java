package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SecAggServer#screen}: hostile messages are refused one by one, the round goes on. */
class SecAggServerScreenTest {
  private static final int N = 5;
  private final SecAggSettings settings = SecAggSettings.of(4, 3, 8, 21)
      .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(5));

  @Test
  void screen_smallOrderKey_refusedAndTheOthersStillSum() {
    List<SecAggClient> clients = clients();
    SecAggServer server = new SecAggServer(N, 2, settings);
    List<AdvertiseKeys> adverts = new ArrayList<>();
    for (SecAggClient c : clients) {
      AdvertiseKeys a = c.advertiseKeys();
      if (c.id() == 4) {
        a = new AdvertiseKeys(4, new byte[32], a.maskingKey());
      }
      if (server.screen(c.id(), a).isEmpty()) {
        adverts.add(a);
      }
    }
    assertThat(adverts).hasSize(4);

    Map<Integer, SecAggMessage.KeyDirectory> dirs = server.collectKeys(adverts);
    List<ShareKeys> shares = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      shares.add(clients.get(i).shareKeys(dirs.get(i)));
    }
    var routed = server.collectShares(shares);
    List<MaskedInput> masked = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      masked.add(clients.get(i).maskedInput(routed.get(i), new long[] {i, 2L * i}));
    }
    var requests = server.collectMaskedInputs(masked);
    List<SecAggMessage.UnmaskShares> responses = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      responses.add(clients.get(i).unmask(requests.get(i)));
    }
    assertThat(server.collectUnmaskShares(responses)).containsExactly(6, 12);
  }

  @Test
  void screen_messageOfAnotherStageOrClient_refusedWithAReason() {
    List<SecAggClient> clients = clients();
    SecAggServer server = new SecAggServer(N, 2, settings);
    AdvertiseKeys a = clients.get(0).advertiseKeys();

    assertThat(server.screen(1, a)).get().extracting(SecAggException::reason)
        .isEqualTo(Reason.PROTOCOL_VIOLATION);
    assertThat(server.screen(0, new MaskedInput(0, new long[2]))).get()
        .extracting(SecAggException::getMessage).asString().contains("ADVERTISE_KEYS");
    assertThat(server.screen(7, a)).get().extracting(SecAggException::reason)
        .isEqualTo(Reason.MALFORMED_MESSAGE);
    assertThat(server.screen(0, a)).isEmpty();
  }

  private List<SecAggClient> clients() {
    List<SecAggClient> clients = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      clients.add(new SecAggClient(i, N, settings));
    }
    return clients;
  }
}
