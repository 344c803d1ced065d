package io.tributary.runtime.executor.internal.federated;

import io.tributary.runtime.executor.internal.local.LocalEvaluator;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The state of one client's work within one pass: every client node's value for this client,
 * computed at most once however many aggregations read it, and dropped with the scope once the
 * client is done. This is what keeps a pass's memory at O(model size x workers).
 */
public final class ClientScope {
  /** The client's index in the pass. */
  public final int client;
  final LocalEvaluator evaluator;
  private final Map<ClientNode, Object> memo = new IdentityHashMap<>();
  /** The intrinsic whose work is running, for naming a timed-out client's failure. */
  public volatile String running = "";
  /** Bytes of tensor data this client hands to the pass's sinks. */
  public long bytes;

  /** The scope of client {@code client}, whose local work {@code evaluator} runs. */
  public ClientScope(int client, LocalEvaluator evaluator) {
    this.client = client;
    this.evaluator = evaluator;
  }

  Object memo(ClientNode node, Supplier<Object> compute) {
    Object v = memo.get(node);
    if (v == null) {
      v = compute.get();
      memo.put(node, v);
    }
    return v;
  }
}
