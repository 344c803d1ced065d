package io.tributary.flower.secaggplus;

import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A finished SecAgg+ round.
 *
 * @param mean the example-weighted mean of the survivors' parameters (float64, the shapes they
 *     sent), as Flower's workflow hands it to {@code aggregate_fit}
 * @param totalWeight the survivors' total example count as the protocol reveals it (the sum of
 *     their quantized weights, each at most the settings' max weight), to about 1 / 2^22 of the
 *     max weight with Flower's default quantization
 * @param survivors the nodes whose parameters the mean holds
 * @param replies each survivor's {@code collect_masked_vectors} reply (its arrays emptied)
 * @param failures why each other sampled node left the round, by node
 */
public record SecAggPlusResult(List<Tensor> mean, double totalWeight, Set<Long> survivors,
    Map<Long, RecordDict> replies, Map<Long, String> failures) {
  public SecAggPlusResult {
    mean = List.copyOf(mean);
    survivors = Set.copyOf(survivors);
    replies = Map.copyOf(replies);
    failures = Map.copyOf(failures);
  }
}
