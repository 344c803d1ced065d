package io.tributary.runtime;

import io.tributary.core.compiler.Block;
import io.tributary.core.compiler.BuildingBlock;
import io.tributary.core.compiler.Call;
import io.tributary.core.compiler.Data;
import io.tributary.core.compiler.Intrinsic;
import io.tributary.core.compiler.IntrinsicCatalogue;
import io.tributary.core.compiler.Lambda;
import io.tributary.core.compiler.Literal;
import io.tributary.core.compiler.LocalComputation;
import io.tributary.core.compiler.PlacementLiteral;
import io.tributary.core.compiler.Reference;
import io.tributary.core.compiler.Selection;
import io.tributary.core.compiler.Struct;
import io.tributary.core.computation.Computation;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Computes {@code federated_secure_sum} and {@code federated_secure_sum_bitwidth} from the
 * clients' integer vectors; {@link RuntimeOptions#withSecureSum} installs one.
 *
 * <p>Without one the runtime adds the clients' values in the clear, as it always did. With one,
 * the runtime gathers every successful client's value of a secure sum (already checked against
 * the bound), flattens it to a {@code long[]} in leaf order, and hands all of them, in client
 * order, to {@link #sum}; only the returned total reaches the rest of the computation. An
 * implementation is expected to run a secure aggregation protocol among simulated clients (the
 * {@code tributary-privacy} module provides SecAgg+), so that what a server would see is only
 * masked vectors and the total.
 *
 * <p>The intrinsics' semantics are those of federated-language: every input element of
 * {@code federated_secure_sum} is in {@code [0, bound]}, of {@code federated_secure_sum_bitwidth}
 * in {@code [0, 2^bitwidth)}, and the result is the exact sum, which the bit-width variant then
 * reduces modulo {@code 2^bitwidth} (the runtime does that reduction, not the implementation).
 */
@FunctionalInterface
public interface SecureSummation {
  /**
   * The element-wise sum of the request's inputs, exact modulo {@code 2^request.sumBits()}
   * (a value of 64 bits means modulo {@code 2^64}, that is, {@code long} wrap-around).
   *
   * @return an array of {@link SecureSumRequest#length()} elements
   * @throws SecureSumException when the protocol cannot produce the sum (too many clients
   *     dropped out, a message was tampered with, an input is out of range); no partial sum is
   *     revealed then
   */
  long[] sum(SecureSumRequest request);

  /** The URIs of the secure sums, placed at the server or at edges. */
  Set<String> SECURE_SUMS = Set.of(IntrinsicCatalogue.FEDERATED_SECURE_SUM.uri(),
      IntrinsicCatalogue.FEDERATED_SECURE_SUM_BITWIDTH.uri(),
      IntrinsicCatalogue.FEDERATED_SECURE_SUM_TO_EDGES.uri(),
      IntrinsicCatalogue.FEDERATED_SECURE_SUM_BITWIDTH_TO_EDGES.uri());

  /**
   * The secure sums that {@code computation} calls anywhere in its body, by URI in sorted order;
   * empty when it calls none. A binding that cannot run the steps before a secure sum where the
   * clients are (a server, whose runtime would compute every client's input itself) uses it to
   * refuse such a computation before running it.
   */
  static SortedSet<String> intrinsicsIn(Computation computation) {
    SortedSet<String> found = new TreeSet<>();
    collect(computation.block(), found);
    return found;
  }

  private static void collect(BuildingBlock block, SortedSet<String> found) {
    switch (block) {
      case Intrinsic i -> {
        if (SECURE_SUMS.contains(i.uri())) {
          found.add(i.uri());
        }
      }
      case Selection s -> collect(s.source(), found);
      case Struct s -> s.elements().forEach(e -> collect(e.value(), found));
      case Call c -> {
        collect(c.function(), found);
        c.argument().ifPresent(a -> collect(a, found));
      }
      case Lambda l -> collect(l.result(), found);
      case Block b -> {
        b.locals().forEach(l -> collect(l.value(), found));
        collect(b.result(), found);
      }
      // Local computations run on one placement: they call no federated intrinsic.
      case Reference r -> { }
      case Data d -> { }
      case PlacementLiteral p -> { }
      case Literal l -> { }
      case LocalComputation lc -> { }
    }
  }
}
