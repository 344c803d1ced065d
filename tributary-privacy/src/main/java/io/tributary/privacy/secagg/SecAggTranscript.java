package io.tributary.privacy.secagg;

import java.util.List;
import java.util.Optional;

/**
 * Everything a SecAgg+ server received in a round, in order, and the sum once it is unmasked:
 * what an honest-but-curious server learns. Tests read it to check that nothing but masked
 * vectors and the total reached the server.
 *
 * @param advertisedKeys stage 1 messages
 * @param sharedKeys stage 2 messages (ciphertexts only)
 * @param maskedInputs stage 3 messages
 * @param unmaskShares stage 4 messages
 * @param sum the unmasked sum, present only when the round succeeded
 */
public record SecAggTranscript(List<SecAggMessage.AdvertiseKeys> advertisedKeys,
    List<SecAggMessage.ShareKeys> sharedKeys, List<SecAggMessage.MaskedInput> maskedInputs,
    List<SecAggMessage.UnmaskShares> unmaskShares, Optional<long[]> sum) {
  public SecAggTranscript {
    advertisedKeys = List.copyOf(advertisedKeys);
    sharedKeys = List.copyOf(sharedKeys);
    maskedInputs = List.copyOf(maskedInputs);
    unmaskShares = List.copyOf(unmaskShares);
    sum = sum.map(long[]::clone);
  }

  /** The ids of the clients whose masked input the server received, in arrival order. */
  public List<Integer> contributors() {
    return maskedInputs.stream().map(SecAggMessage.MaskedInput::client).toList();
  }
}
