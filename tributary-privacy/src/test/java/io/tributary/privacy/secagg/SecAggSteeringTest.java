package io.tributary.privacy.secagg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.privacy.secagg.SecAggException.Reason;
import io.tributary.privacy.secagg.SecAggMessage.EncryptedShares;
import io.tributary.privacy.secagg.SecAggMessage.KeyDirectory;
import io.tributary.privacy.secagg.SecAggMessage.MaskedInput;
import io.tributary.privacy.secagg.SecAggMessage.ShareKeys;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskRequest;
import io.tributary.privacy.secagg.SecAggMessage.UnmaskShares;
import io.tributary.privacy.secagg.internal.Shamir;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hostile participant beside honest ones tries to steer the server's sum: by forging its
 * shares of a survivor's self-mask seed, by lying in its commitment, or by adding a large value
 * to its masked input. The server refuses the round, naming the check, or recovers the right
 * seed from the honest shares; it never returns a moved sum.
 */
class SecAggSteeringTest {
  private static final int N = 5;
  private final SecAggSettings settings = SecAggSettings.of(4, 3, 8, 35)
      .withRandomness(SecAggRandomness.seededForTestsOnlyNotSecure(35));
  private final List<SecAggClient> clients = new ArrayList<>();
  private SecAggServer server;

  @BeforeEach
  void start() {
    for (int i = 0; i < N; i++) {
      clients.add(new SecAggClient(i, N, settings));
    }
    server = new SecAggServer(N, 3, settings);
  }

  private static long[] input(int c) {
    return new long[] {c, 2L * c, 255};
  }

  /** Runs the round to its unmask stage, with client 0 not answering it. */
  private List<UnmaskShares> toUnmask(UnaryOperator<ShareKeys> shareKeys,
      UnaryOperator<MaskedInput> masked) {
    Map<Integer, KeyDirectory> dirs = server.collectKeys(
        clients.stream().map(SecAggClient::advertiseKeys).toList());
    List<ShareKeys> shares = new ArrayList<>();
    for (SecAggClient c : clients) {
      shares.add(shareKeys.apply(c.shareKeys(dirs.get(c.id()))));
    }
    Map<Integer, EncryptedShares> routed = server.collectShares(shares);
    List<MaskedInput> inputs = new ArrayList<>();
    for (SecAggClient c : clients) {
      inputs.add(masked.apply(c.maskedInput(routed.get(c.id()), input(c.id()))));
    }
    Map<Integer, UnmaskRequest> requests = server.collectMaskedInputs(inputs);
    List<UnmaskShares> responses = new ArrayList<>();
    for (SecAggClient c : clients.subList(1, N)) {
      responses.add(c.unmask(requests.get(c.id())));
    }
    return responses;
  }

  /** Client {@code forger}'s answer with its share of {@code owner}'s self-mask seed moved. */
  private static List<UnmaskShares> forge(List<UnmaskShares> responses, int forger, int owner) {
    List<UnmaskShares> out = new ArrayList<>();
    for (UnmaskShares r : responses) {
      if (r.client() != forger) {
        out.add(r);
        continue;
      }
      byte[][] self = r.selfMaskShares().clone();
      int at = Arrays.binarySearch(r.selfMaskOwners(), owner);
      // Adding d to one share moves the interpolated secret by d times its Lagrange weight:
      // the forger chooses d to move the seed where it likes.
      BigInteger y = new BigInteger(1, self[at]).add(BigInteger.valueOf(12345))
          .mod(Shamir.PRIME);
      byte[] raw = y.toByteArray();
      byte[] share = new byte[Shamir.SHARE_BYTES];
      int n = Math.min(raw.length, share.length);
      System.arraycopy(raw, raw.length - n, share, share.length - n, n);
      self[at] = share;
      out.add(new UnmaskShares(r.client(), r.maskingKeyOwners(), r.maskingKeyShares(),
          r.selfMaskOwners(), self));
    }
    return out;
  }

  @Test
  void collectUnmaskShares_forgedShareWhenExactlyThresholdArrive_refusedNamingTheOwner() {
    // Client 0 does not answer: client 1's seed has exactly t = 3 shares (from 2, 3 and 4).
    List<UnmaskShares> responses = forge(toUnmask(s -> s, m -> m), 2, 1);

    assertThatThrownBy(() -> server.collectUnmaskShares(responses))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.INCONSISTENT_SHARES);
          assertThat(e.client()).hasValue(1);
          assertThat(e.getMessage()).contains("seed it committed to").contains("forged");
        });
    assertThat(server.transcript().sum()).isEmpty();
  }

  @Test
  void collectUnmaskShares_forgedShareAmongMoreThanThreshold_recoversTheExactSum() {
    // Client 0's seed has 4 shares (from 1 to 4); the forged one is left out.
    List<UnmaskShares> responses = forge(toUnmask(s -> s, m -> m), 2, 0);

    long[] sum = server.collectUnmaskShares(responses);

    assertThat(sum).containsExactly(10, 20, 5 * 255);
  }

  @Test
  void collectUnmaskShares_clientCommittedToAnotherSeed_refusedNamingIt() {
    List<UnmaskShares> responses = toUnmask(s -> s.client() != 3 ? s
        : new ShareKeys(s.client(), s.recipients(), s.ciphertexts(), new byte[32]), m -> m);

    assertThatThrownBy(() -> server.collectUnmaskShares(responses))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.INCONSISTENT_SHARES);
          assertThat(e.client()).hasValue(3);
        });
  }

  @Test
  void collectUnmaskShares_maskedInputPushedOutOfRange_refusedByTheRangeCheck() {
    // 8-bit inputs of 5 clients sum modulo 2^11; 1,500 more on one element lands above 5 x 255.
    List<UnmaskShares> responses = toUnmask(s -> s, m -> {
      if (m.client() != 4) {
        return m;
      }
      long[] y = m.masked().clone();
      y[0] = (y[0] + 1500) & ((1L << 11) - 1);
      return new MaskedInput(m.client(), y);
    });

    assertThatThrownBy(() -> server.collectUnmaskShares(responses))
        .isInstanceOfSatisfying(SecAggException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.INPUT_OUT_OF_RANGE);
          assertThat(e.getMessage()).startsWith("range check: element 0 ")
              .contains("above 5 x (2^8 - 1) = 1275");
        });
    assertThat(server.transcript().sum()).isEmpty();
  }
}
