package io.tributary.flower.app;

import io.tributary.flower.records.Array;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.RecordException;
import io.tributary.tensor.Finite;
import io.tributary.tensor.Tensor;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a NaN or infinite element in the numpy arrays a {@code train} or {@code evaluate}
 * message carries, so that no Java ClientApp, built-in or the user's, trains or evaluates on a
 * model that is not finite.
 *
 * <p>Arrays that are not numpy arrays or do not decode are left to the handler: this check only
 * refuses what it can read.
 */
final class NonFiniteArrays {
  private NonFiniteArrays() {}

  /** Whether messages of {@code type} carry a model the check applies to. */
  static boolean applies(String type) {
    return isKind(type, ClientApp.TRAIN) || isKind(type, ClientApp.EVALUATE);
  }

  private static boolean isKind(String type, String kind) {
    return type.equals(kind) || type.startsWith(kind + ".");
  }

  /** The first non-finite element of {@code message}'s arrays, named, or empty. */
  static Optional<String> problem(Message message) {
    for (Map.Entry<String, ArrayRecord> r : message.content().arrayRecords().entrySet()) {
      for (Map.Entry<String, Array> a : r.getValue().arrays().entrySet()) {
        Array array = a.getValue();
        if (!Array.NUMPY.equals(array.stype())) {
          continue;
        }
        Tensor t;
        try {
          t = array.toTensor();
        } catch (RecordException e) {
          continue;
        }
        Optional<String> p = Finite.problem(List.of(t), List.of(r.getKey() + "." + a.getKey()));
        if (p.isPresent()) {
          return p;
        }
      }
    }
    return Optional.empty();
  }
}
