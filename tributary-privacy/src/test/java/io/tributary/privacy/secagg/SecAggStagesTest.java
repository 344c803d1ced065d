package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.AdvertiseKeys;
import io.tributary.privacy.secagg.SecAggMessage.EncryptedShares;
import io.tributary.privacy.secagg.SecAggMessage.KeyDirectory;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskRequest;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client and server state machines driven stage by stage, as a transport would. */
class SecAggStagesTest {
  private static final int N = 5;
  private final SecAggSettings settings = SecAggSettings.of(4, 3, 8, 21)
      .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(21));
  private final List<SecAggClient> clients = new ArrayList<>();
  private SecAggServer server;
  private Map<Integer, EncryptedShares> routed;

  @BeforeEach
  void throughShareKeys() {
    for (int i = 0; i < N; i++) {
      clients.add(new SecAggClient(i, N, settings));
    }
    server = new SecAggServer(N, 3, settings);
    Map<Integer, KeyDirectory> dirs = server.collectKeys(
        clients.stream().map(SecAggClient::advertiseKeys).toList());
    List<ShareKeys> shares = new ArrayList<>();
    for (SecAggClient c : clients) {
      shares.add(c.shareKeys(dirs.get(c.id())));
    }
    routed = server.collectShares(shares);
  }

  private static long[] input(int c) {
    return new long[] {c, 2L * c, 255};
  }

  @Test
  void maskedInput_tamperedCiphertext_failsTypedNamingTheSender() {
    EncryptedShares forZero = routed.get(0);
    int at = java.util.Arrays.binarySearch(forZero.senders(), 2);
    byte[][] ciphertexts = forZero.ciphertexts().clone();
    ciphertexts[at] = ciphertexts[at].clone();
    ciphertexts[at][20] ^= 1;
    EncryptedShares tampered = new EncryptedShares(0, forZero.senders(), ciphertexts);

    assertThatThrownBy(() -> clients.get(0).maskedInput(tampered, input(0)))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.TAMPERED_MESSAGE);
          assertThat(e.client()).hasValue(2);
          assertThat(e.getMessage()).contains("client 2");
        });
  }

  @Test
  void maskedInput_ciphertextRoutedToTheWrongClient_failsAuthentication() {
    EncryptedShares forOne = routed.get(1);
    EncryptedShares misrouted = new EncryptedShares(0, forOne.senders().length > 0
        ? new int[] {forOne.senders()[forOne.senders().length - 1]} : new int[0],
        new byte[][] {forOne.ciphertexts()[forOne.senders().length - 1]});

    assertThatThrownBy(() -> clients.get(0).maskedInput(misrouted, input(0)))
        .isInstanceOfSatisfying(SecAggException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.TAMPERED_MESSAGE));
  }

  @Test
  void unmask_clientNamedBothDroppedAndSurvivor_revealsNothing() {
    List<MaskedInput> inputs = new ArrayList<>();
    for (SecAggClient c : clients) {
      inputs.add(c.maskedInput(routed.get(c.id()), input(c.id())));
    }
    server.collectMaskedInputs(inputs);

    assertThatThrownBy(() -> clients.get(0).unmask(
        new UnmaskRequest(0, new int[] {3}, new int[] {0, 1, 2, 3, 4})))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.PROTOCOL_VIOLATION);
          assertThat(e.client()).hasValue(3);
        });
  }

  @Test
  void unmask_secondRequest_isRefused() {
    List<MaskedInput> inputs = new ArrayList<>();
    for (SecAggClient c : clients) {
      inputs.add(c.maskedInput(routed.get(c.id()), input(c.id())));
    }
    Map<Integer, UnmaskRequest> requests = server.collectMaskedInputs(inputs);
    clients.get(0).unmask(requests.get(0));

    assertThatThrownBy(() -> clients.get(0).unmask(
        new UnmaskRequest(0, new int[] {1}, new int[] {0, 2, 3, 4})))
        .isInstanceOfSatisfying(SecAggException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.PROTOCOL_VIOLATION));
  }

  @Test
  void collectUnmaskShares_allStagesByHand_givesTheSum() {
    List<MaskedInput> inputs = new ArrayList<>();
    for (SecAggClient c : clients) {
      if (c.id() != 4) {
        inputs.add(c.maskedInput(routed.get(c.id()), input(c.id())));
      }
    }
    Map<Integer, UnmaskRequest> requests = server.collectMaskedInputs(inputs);
    List<UnmaskShares> responses = new ArrayList<>();
    for (SecAggClient c : clients.subList(0, 4)) {
      responses.add(c.unmask(requests.get(c.id())));
    }

    long[] sum = server.collectUnmaskShares(responses);

    assertThat(sum).containsExactly(6, 12, 4 * 255);
    assertThat(server.transcript().sum()).isPresent();
  }

  @Test
  void collectKeys_messageFromAnUnknownClient_failsTyped() {
    SecAggServer fresh = new SecAggServer(N, 3, settings);
    AdvertiseKeys bad = new AdvertiseKeys(7, new byte[32], new byte[32]);

    assertThatThrownBy(() -> fresh.collectKeys(List.of(bad)))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.MALFORMED_MESSAGE);
          assertThat(e.client()).hasValue(7);
        });
  }

  @Test
  void advertiseKeys_calledTwice_isAProtocolViolation() {
    SecAggClient c = new SecAggClient(0, N, settings);
    c.advertiseKeys();

    assertThatThrownBy(c::advertiseKeys).isInstanceOfSatisfying(SecAggException.class,
        e -> assertThat(e.reason()).isEqualTo(Reason.PROTOCOL_VIOLATION));
  }
}
