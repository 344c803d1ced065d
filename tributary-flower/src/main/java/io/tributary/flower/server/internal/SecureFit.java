package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.Scalar;
import io.tributary.flower.server.SecureFitProtocol;
import io.tributary.learning.rounds.RoundProgress;
import java.util.List;
import java.util.Map;

/**
 * A server's secure fit round: it talks to the round's sampled clients itself, stage by stage,
 * and gives the round computation one aggregated update. {@link SecureRound} runs a
 * {@link SecureFitProtocol} over FitIns/FitRes; a Fleet server runs Flower's SecAgg+ workflow
 * over {@code train} messages.
 */
public interface SecureFit {
  /** The protocol's name, for logs. */
  String name();

  /** The stages of a round, each allowed the round timeout. */
  int exchanges();

  /**
   * Runs one round over {@code clients} from {@code model}.
   *
   * @return the example-weighted mean update of the clients that took part to the end
   * @throws SecureFitProtocol.Failed when the round cannot finish; no sum is revealed
   */
  SecureFitProtocol.Outcome run(List<RemoteClient> clients, StructValue model,
      Map<String, Scalar> fitConfig);

  /** Tells {@code progress} of round {@code round}'s stages, answers and drop-outs. */
  void progress(int round, RoundProgress progress);

  /** Forgets the last round's exclusions, before a new round. */
  void reset();

  /** Why clients were excluded from the last round, one line per client. */
  List<String> exclusions();
}
