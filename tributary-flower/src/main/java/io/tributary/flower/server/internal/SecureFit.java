package io.tributary.flower.server.internal;

import io.tributary.core.values.StructValue;
import io.tributary.flower.server.SecureFitProtocol;
import java.util.List;

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
   * Runs the secure round of {@code fit} from {@code model}: over its clients, with its fit
   * config, telling its progress of the stages, answers and drop-outs.
   *
   * @return the example-weighted mean update of the clients that took part to the end
   * @throws SecureFitProtocol.Failed when the round cannot finish; no sum is revealed
   */
  SecureFitProtocol.Outcome run(FitRound fit, StructValue model);

  /** Forgets the last round's exclusions, before a new round. */
  void reset();

  /** Why clients were excluded from the last round, one line per client. */
  List<String> exclusions();
}
