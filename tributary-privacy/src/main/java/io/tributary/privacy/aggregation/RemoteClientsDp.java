package io.tributary.privacy.aggregation;

import io.tributary.core.types.StructType;
import io.tributary.learning.aggregation.AggregationProcess;
import io.tributary.learning.aggregation.Aggregator;
import io.tributary.learning.aggregation.ClientClipping;
import java.util.Optional;

/**
 * Client-side DP whose clients run elsewhere: the server's part of the aggregation ({@code
 * served}, which adds no local noise, since the clients add it) and what the clients are told
 * to do ({@code clients}).
 */
record RemoteClientsDp(DpAggregator served, ClientClipping clients) implements Aggregator {
  @Override
  public String name() {
    return served.name();
  }

  @Override
  public AggregationProcess create(StructType model) {
    return served.create(model);
  }

  @Override
  public Optional<ClientClipping> clientClipping() {
    return Optional.of(clients);
  }
}
