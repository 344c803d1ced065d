package io.tributary.runtime.executor.internal.pass;

import io.tributary.runtime.ClientValues;
import io.tributary.runtime.PassEngineException;
import io.tributary.runtime.PassInputs;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a pass's client-side inputs for a node that computes clients
 * {@code [fromClient, toClient)}: the pass, the argument leaves (of each per-client argument only
 * those clients' values, and the population's size), and the server values the pass's clients
 * read, in {@link PassCodec}'s value format. Decoding checks every count against the bytes left
 * before allocating, and the range against each population, so bytes from the network are only
 * ever read as data.
 */
public final class InputsCodec {
  private static final byte[] MAGIC = {'T', 'B', 'P', 'I'};
  private static final byte VERSION = 1;

  private InputsCodec() {}

  /**
   * The bytes of {@code inputs} for clients {@code [fromClient, toClient)}.
   *
   * @throws IllegalArgumentException when the range is not inside a per-client argument
   * @throws PassEngineException for a value that cannot travel
   */
  public static byte[] encode(PassInputs inputs, int fromClient, int toClient) {
    PassInputs mine = inputs.forClients(fromClient, toClient);
    PassCodec.Out out = new PassCodec.Out();
    out.bytes(MAGIC);
    out.u8(VERSION);
    out.i32(inputs.pass());
    out.i32(fromClient);
    out.i32(toClient);
    List<Object> leaves = mine.clientArguments();
    out.i32(leaves.size());
    out.i32(mine.perClient().size());
    for (int i : mine.perClient()) {
      out.i32(i);
    }
    for (int i = 0; i < leaves.size(); i++) {
      if (mine.perClient().contains(i)) {
        ClientValues c = (ClientValues) leaves.get(i);
        out.i32(c.size());
        for (int k = fromClient; k < toClient; k++) {
          PassCodec.writeValue(c.get(k), out);
        }
      } else {
        PassCodec.writeValue(leaves.get(i), out);
      }
    }
    out.i32(mine.serverValues().size());
    for (Object v : mine.serverValues()) {
      PassCodec.writeValue(v, out);
    }
    return out.toArray();
  }

  /**
   * The inputs {@link #encode} wrote: each per-client argument holds the population's size and
   * only the encoded clients' values (reading another client's fails).
   *
   * @throws PassEngineException naming what is malformed
   */
  public static PassInputs decode(byte[] bytes) {
    PassCodec.In in = new PassCodec.In(bytes, "pass inputs");
    in.magic(MAGIC);
    int pass = in.i32("the pass");
    int from = in.i32("the first client");
    int to = in.i32("the end of the clients");
    if (pass < 0 || from < 0 || to < from) {
      throw in.bad("pass " + pass + " of clients [" + from + ", " + to + ") does not exist");
    }
    int leafCount = in.count("argument leaves", Integer.MAX_VALUE);
    int perClientCount = in.count("per-client arguments", leafCount);
    List<Integer> perClient = new ArrayList<>();
    for (int k = 0; k < perClientCount; k++) {
      int i = in.i32("a per-client argument");
      if (i < 0 || i >= leafCount || (k > 0 && i <= perClient.get(k - 1))) {
        throw in.bad("per-client argument " + i + " is not one of the " + leafCount
            + " leaves in ascending order");
      }
      perClient.add(i);
    }
    List<Object> leaves = new ArrayList<>();
    for (int i = 0; i < leafCount; i++) {
      if (perClient.contains(i)) {
        int size = in.i32("a population's size");
        if (size < to) {
          throw in.bad("clients [" + from + ", " + to + ") are not inside argument leaf " + i
              + "'s " + size + " clients");
        }
        List<Object> kept = new ArrayList<>();
        for (int k = from; k < to; k++) {
          kept.add(PassCodec.readValue(in, 0));
        }
        // Held in memory here: costed by their bytes, as the local run costs held values.
        leaves.add(KeptClients.of(size, from, kept, KeptClients.bytes(from, kept)));
      } else {
        leaves.add(PassCodec.readValue(in, 0));
      }
    }
    int serverCount = in.count("server values", Integer.MAX_VALUE);
    List<Object> server = new ArrayList<>();
    for (int k = 0; k < serverCount; k++) {
      server.add(PassCodec.readValue(in, 0));
    }
    in.end();
    return new PassInputs(pass, leaves, perClient, server);
  }
}
