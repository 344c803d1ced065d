package io.tributary.data;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A federated dataset read client by client: how many clients there are, client k's training
 * examples when asked for, and one held-out test set. A simulation asks for a client each time it
 * trains or scores it, so a source need not hold its clients: {@link CsvClients} reads them from
 * a file, {@link NpzClients} from one {@code .npz} per client.
 *
 * <p>Every client's examples have the test set's example shape and class count; {@link
 * #checked(int)} checks it.
 *
 * <pre>{@code
 * FederatedSource mine = FederatedSource.ofTensors("sensors", xs, ys, 3, testX, testY);
 * SimulationSettings s = SimulationSettings.builder().data(mine).rounds(20).build();
 * }</pre>
 */
public interface FederatedSource {
  /** The data's name, as reports and errors show it. */
  String name();

  /** The number of clients, at least one. */
  int clients();

  /**
   * Client {@code k}'s training examples.
   *
   * @throws IOException when they cannot be read
   * @throws IndexOutOfBoundsException when {@code k} is not in {@code [0, clients())}
   */
  Dataset client(int k) throws IOException;

  /** The held-out examples the global model is scored on. */
  Dataset test();

  /** The shape of one example's features. */
  default long[] exampleShape() {
    return test().exampleShape();
  }

  /** The number of classes: every label lies below it. */
  default int numClasses() {
    return test().numClasses();
  }

  /**
   * Client {@code k}'s examples, checked to have at least one example, the test set's example
   * shape and class count.
   *
   * @throws IOException when they cannot be read
   * @throws IllegalArgumentException naming the client and what does not fit
   */
  default Dataset checked(int k) throws IOException {
    Objects.checkIndex(k, clients());
    Dataset d = client(k);
    check(name(), k, d, exampleShape(), numClasses());
    return d;
  }

  /**
   * Clients whose examples are held: {@code clients.get(k)} is client k's.
   *
   * @throws IllegalArgumentException when there is no client, or a client has no examples or
   *     another example shape or class count than {@code test}
   */
  static FederatedSource of(String name, List<Dataset> clients, Dataset test) {
    List<Dataset> held = List.copyOf(clients);
    Objects.requireNonNull(test, "test");
    requireClients(name, held.size());
    for (int k = 0; k < held.size(); k++) {
      check(name, k, held.get(k), test.exampleShape(), test.numClasses());
    }
    return new FederatedSources.Held(name, held, test);
  }

  /**
   * Clients from tensors: client k has features {@code x.get(k)} (float32 {@code [n_k, ...]}) and
   * labels {@code y.get(k)} (int64 {@code [n_k]}, each in {@code [0, numClasses)}); the test set
   * is {@code testX}, {@code testY}.
   *
   * @throws IllegalArgumentException naming the client whose tensors are wrong
   */
  static FederatedSource ofTensors(String name, List<Tensor> x, List<Tensor> y, int numClasses,
      Tensor testX, Tensor testY) {
    if (x.size() != y.size()) {
      throw new IllegalArgumentException(name + ": " + x.size() + " clients' features but "
          + y.size() + " clients' labels");
    }
    List<Dataset> clients = new ArrayList<>();
    for (int k = 0; k < x.size(); k++) {
      clients.add(new Dataset(name + " client " + k, x.get(k), y.get(k), numClasses));
    }
    return of(name, clients, new Dataset(name + " test", testX, testY, numClasses));
  }

  /**
   * Clients made when asked for: {@code client.apply(k)} makes client k's examples, each time a
   * round needs them; the examples are checked as they are made ({@link #checked}).
   *
   * @throws IllegalArgumentException when {@code clients} is not positive
   */
  static FederatedSource supplied(String name, int clients, IntFunction<Dataset> client,
      Dataset test) {
    return read(name, clients, client::apply, test);
  }

  /**
   * Clients read when asked for: {@code reader.read(k)} reads client k's examples, each time a
   * round needs them, for data too large to hold.
   *
   * @throws IllegalArgumentException when {@code clients} is not positive
   */
  static FederatedSource read(String name, int clients, ClientReader reader, Dataset test) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(test, "test");
    requireClients(name, clients);
    return new FederatedSources.Read(name, clients, reader, test);
  }

  /** Reads one client's examples. */
  @FunctionalInterface
  interface ClientReader {
    /**
     * Client {@code k}'s training examples.
     *
     * @throws IOException when they cannot be read
     */
    Dataset read(int k) throws IOException;
  }

  /**
   * Every client's examples read and checked, for a caller that wants bad data found before any
   * training starts.
   *
   * @throws IOException when a client cannot be read
   * @throws IllegalArgumentException naming the first client that does not fit
   */
  static void checkAll(FederatedSource source) throws IOException {
    for (int k = 0; k < source.clients(); k++) {
      source.checked(k);
    }
  }

  /** {@code d} as {@link #checked} wants it, or an exception naming client {@code k}. */
  private static void check(String name, int k, Dataset d, long[] shape, int classes) {
    if (d == null) {
      throw new IllegalArgumentException(name + ": client " + k + " has no data (null)");
    }
    if (d.size() == 0) {
      throw new IllegalArgumentException(name + ": client " + k + " has no examples");
    }
    if (!Arrays.equals(d.exampleShape(), shape)) {
      throw new IllegalArgumentException(name + ": client " + k + "'s examples have shape "
          + Arrays.toString(d.exampleShape()) + ", the test set's " + Arrays.toString(shape));
    }
    if (d.numClasses() != classes) {
      throw new IllegalArgumentException(name + ": client " + k + " has " + d.numClasses()
          + " classes, the test set " + classes);
    }
  }

  private static void requireClients(String name, int clients) {
    if (clients < 1) {
      throw new IllegalArgumentException(name + ": no clients");
    }
  }
}
