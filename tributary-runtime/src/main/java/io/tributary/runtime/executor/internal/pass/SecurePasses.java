package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.ClientFailure;
import io.tributary.runtime.PassPart;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.SecurePass;
import io.tributary.runtime.SecureSumClient;
import io.tributary.runtime.SecureSumException;
import io.tributary.runtime.SecureSumInput;
import io.tributary.runtime.SecureSumRequest;
import io.tributary.runtime.SecureSumSpec;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.SecureMode;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Client passes whose secure sums run where the clients are: the pass's secure sums as one
 * vector ({@link #spec}), a node's client handing its input to the protocol instead of the part
 * ({@link #submit}), and the driver ending the pass from the parts and the protocol's sum, over
 * the clients the sum covers ({@link #finish}).
 */
public final class SecurePasses {
  private SecurePasses() {}

  /**
   * The secure sums among {@code sinks} whose inputs leave through a protocol, as one vector in
   * sink order; empty when there are none.
   */
  public static Optional<SecureSumSpec> spec(int pass, int clients, List<Sink> sinks) {
    List<SecureSumSpec.Slice> slices = new ArrayList<>();
    List<long[]> maxima = new ArrayList<>();
    int offset = 0;
    for (Sink s : sinks) {
      if (leaves(s) instanceof LinearSink l) {
        slices.add(new SecureSumSpec.Slice(l.intrinsic(), offset, l.secureLength()));
        maxima.add(l.secureMaxInput());
        offset = Math.addExact(offset, l.secureLength());
      }
    }
    if (slices.isEmpty()) {
      return Optional.empty();
    }
    long[] max = new long[offset];
    long largest = 0;
    for (int k = 0; k < slices.size(); k++) {
      System.arraycopy(maxima.get(k), 0, max, slices.get(k).offset(), maxima.get(k).length);
      for (long m : maxima.get(k)) {
        largest = Math.max(largest, m);
      }
    }
    return Optional.of(new SecureSumSpec(pass, clients, slices, max,
        SecureSumRequest.sumBits(largest, clients)));
  }

  /** The sink as a secure sum whose inputs leave the clients, or null. */
  private static LinearSink leaves(Sink s) {
    if (s instanceof LinearSink l && (l.secureMode() == SecureMode.CLIENT
        || l.secureMode() == SecureMode.ENGINE)) {
      return l;
    }
    return null;
  }

  /**
   * Refuses a pass whose groups hold several clients: a part would fold them, and a node holds
   * only its own client.
   *
   * @throws SecureSumException naming the group size and the largest pass that has groups of one
   */
  public static void requireOneClientPerGroup(int clients, SecureSumSpec spec) {
    int size = ClientPass.groupSize(clients);
    if (size != 1) {
      int most = 2 * ClientPass.TARGET_GROUPS - 1;
      throw new SecureSumException("pass " + spec.pass() + " computes " + spec.describe()
          + " where the clients are, which needs one client per group, but " + clients
          + " clients form groups of " + size + " (one client per group up to " + most
          + " clients)");
    }
  }

  /**
   * Hands the client's inputs to the pass's secure sums, gathered in its part's leaves, to
   * {@code protocol}, leaving the part without them; empty when the client failed.
   *
   * @throws SecureSumException when the protocol returns nothing
   */
  static Optional<byte[]> submit(SecureSumSpec spec, List<Sink> sinks, ClientPass.Part part,
      int client, SecureSumClient protocol) {
    if (!part.complete() || part.successes() != 1) {
      return Optional.empty();
    }
    long[] input = new long[spec.length()];
    int k = 0;
    for (int s = 0; s < sinks.size(); s++) {
      LinearSink l = leaves(sinks.get(s));
      if (l != null) {
        long[] x = l.takeClientInput(part.subtrees().get(s).get(0).value());
        System.arraycopy(x, 0, input, spec.sums().get(k++).offset(), x.length);
      }
    }
    byte[] sent = protocol.submit(new SecureSumInput(spec, client, input));
    if (sent == null) {
      throw new SecureSumException("the secure sum protocol returned nothing for client "
          + client + "'s input to " + spec.describe());
    }
    return Optional.of(sent);
  }

  /**
   * Ends a pass from an engine's {@link SecurePass}: checks the parts (one group each, once) and
   * the survivors (each with a successful part), counts every client without a part or outside
   * the survivors as dropped out, applies the failure policy and merges as a local pass does,
   * and sets each secure sum to its slice of the protocol's sum.
   *
   * @throws io.tributary.runtime.PassEngineException when a part is malformed
   * @throws SecureSumException when the survivors and the parts disagree, or the sum has the
   *     wrong length
   */
  public static ClientPass.Result finish(List<Sink> sinks, int clients, double minSuccessFraction,
      SecureSumSpec spec, SecurePass secure) {
    boolean strict = minSuccessFraction >= 1.0;
    TreeMap<Integer, ClientPass.Part> byClient = new TreeMap<>();
    for (PassPart p : secure.parts()) {
      if (p == null) {
        throw PassCodec.malformed("the pass engine returned a null part");
      }
      if (p.toGroup() != p.fromGroup() + 1) {
        throw PassCodec.malformed("pass part [" + p.fromGroup() + ", " + p.toGroup() + ") of a "
            + "pass with secure sums is not one client's group");
      }
      ClientPass.Part part = PassCodec.decodeOne(p, sinks, clients, strict);
      if (byClient.put(part.fromGroup(), part) != null) {
        throw PassCodec.malformed("client " + part.fromGroup() + "'s part arrived twice");
      }
    }
    int[] survivors = secure.survivors();
    for (int i = 0; i < survivors.length; i++) {
      int c = survivors[i];
      if (c < 0 || c >= clients || (i > 0 && c <= survivors[i - 1])) {
        throw new SecureSumException("the secure sum's survivors " + Arrays.toString(survivors)
            + " are not clients of the pass's " + clients + " in increasing order");
      }
      ClientPass.Part part = byClient.get(c);
      if (part == null || part.successes() != 1) {
        throw new SecureSumException("client " + c + " is among the survivors of "
            + spec.describe() + ", but its part " + (part == null ? "did not arrive"
            : "says it failed") + ": the protocol's sum and the parts disagree, so the pass is "
            + "refused");
      }
    }
    if (survivors.length > 0 && secure.sum().length != spec.length()) {
      throw new SecureSumException(spec.describe() + ": the protocol's sum has "
          + secure.sum().length + " elements, expected " + spec.length());
    }
    List<ClientPass.Part> parts = new ArrayList<>();
    String intrinsic = spec.sums().get(0).intrinsic();
    for (int c = 0; c < clients; c++) {
      ClientPass.Part part = byClient.get(c);
      boolean survived = Arrays.binarySearch(survivors, c) >= 0;
      if (part != null && (survived || part.successes() == 0)) {
        parts.add(part);
      } else {
        parts.add(dropped(sinks, c, intrinsic, part == null ? "its pass part did not arrive"
            : "its input to the secure sum did not arrive"));
      }
    }
    ClientPass.Result r = ClientPass.finish(sinks, clients, minSuccessFraction, parts);
    long[] sum = survivors.length == 0 ? new long[spec.length()] : secure.sum();
    int k = 0;
    for (int s = 0; s < sinks.size(); s++) {
      LinearSink l = leaves(sinks.get(s));
      if (l != null) {
        r.values()[s] = l.protocolResult(sum, spec.sums().get(k++).offset());
      }
    }
    return r;
  }

  /** The group of a client that dropped out: every aggregation's empty partial, and its failure. */
  private static ClientPass.Part dropped(List<Sink> sinks, int client, String intrinsic,
      String why) {
    List<List<ReductionTree.Node<Object>>> subtrees = new ArrayList<>();
    for (Sink s : sinks) {
      subtrees.add(List.of(new ReductionTree.Node<>(0, client, s.newPartial())));
    }
    return new ClientPass.Part(client, client + 1, subtrees, List.of(new ClientFailure(client,
        intrinsic, "secure sum", ClientFailure.Kind.DROPPED_OUT, why)), 0, true);
  }
}
