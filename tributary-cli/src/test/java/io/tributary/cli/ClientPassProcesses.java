package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.fleet.server.JavaNodes;
import io.tributary.flower.fleet.server.SimulatedNodes;
import io.tributary.flower.passes.ComposedAlgorithms;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.SecureSumRefusedException;
import io.tributary.flower.server.ServerConfig;
import io.tributary.privacy.secagg.SecAggPlus;
import io.tributary.privacy.secagg.SecAggSettings;
import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * The nodes of a client-pass test, each a {@code tributary client} or {@code tributary
 * supernode} in a JVM of its own, against a server whose computation is {@link
 * DpSecureSumAlgorithms}' DP-FedAvg summed securely with SecAgg+; with the server's settings,
 * the user's classes that register the algorithm, and the check that a run equals the simulated
 * one bit for bit.
 */
final class ClientPassProcesses {
  /**
   * SecAgg+ among four nodes, each every other's neighbour; two of a node's three neighbours
   * recover it.
   */
  static final SecureAggregation SECURE_AGGREGATION = new SecureAggregation(3, 2, 16, 1.0, 20);

  private final List<Process> processes;

  private ClientPassProcesses(List<Process> processes) {
    this.processes = processes;
  }

  /** The server's settings: {@code rounds} rounds over {@code nodes} nodes from {@code init}. */
  static ServerConfig config(int rounds, int nodes, SequencedMap<String, Tensor> init) {
    return ServerConfig.builder().minSuccessFraction(0.5).address("127.0.0.1", 0).rounds(rounds)
        .minClients(nodes).algorithm(DpSecureSumAlgorithms.algorithm())
        .roundTimeout(Duration.ofSeconds(60)).clientWait(Duration.ofSeconds(120)).seed(11)
        .initial(InitialParameters.given(init)).build();
  }

  /** A folder in {@code dir} that a user's jar stands for: it registers the algorithm. */
  static Path userClasses(Path dir) throws IOException {
    Path services = Files.createDirectories(dir.resolve("user/META-INF/services"));
    Files.writeString(services.resolve(ComposedAlgorithms.class.getName()),
        DpSecureSumAlgorithms.class.getName() + "\n");
    return dir.resolve("user");
  }

  /**
   * Starts {@code count} processes of {@code tributary COMMAND}, the i-th with {@code args(i)}
   * then {@code more} and its output to {@code dir/COMMAND-i.log}, each after the server's
   * {@code connected} count shows the one before joined, so that the server's order of its nodes
   * is theirs. Those started are killed if one does not join.
   */
  static ClientPassProcesses startInTurn(Path dir, String command, int count,
      IntFunction<List<String>> args, List<String> more, IntSupplier connected)
      throws Exception {
    List<Process> started = new ArrayList<>();
    boolean joined = false;
    try {
      for (int i = 0; i < count; i++) {
        List<String> all = new ArrayList<>(args.apply(i));
        all.addAll(more);
        started.add(CliProcess.start(dir.resolve(command + "-" + i + ".log"), "256m", command,
            all));
        JavaNodes.await(connected, i + 1, command + " processes");
      }
      joined = true;
      return new ClientPassProcesses(started);
    } finally {
      if (!joined) {
        started.forEach(Process::destroyForcibly);
      }
    }
  }

  /**
   * Checks a run of {@code rounds} rounds: no round failed, and its model's first tensor moved
   * from {@code init}'s and equals, bit for bit, the simulated run's over {@code clients} (each
   * the Join client or the app of the node whose id stands at its index in {@code ids}).
   */
  static void assertEqualsSimulatedRun(RunResult result, List<String> ids, List<?> clients,
      SequencedMap<String, Tensor> init, ServerConfig config, int rounds) {
    Map<String, Object> byId = new LinkedHashMap<>();
    for (int i = 0; i < clients.size(); i++) {
      byId.put(ids.get(i), clients.get(i));
    }
    double[] initial = SimulatedNodes.doubles(init.firstEntry().getValue());

    assertThat(result.rounds()).hasSize(rounds).allSatisfy(r ->
        assertThat(r.failureReasons()).isEmpty());
    double[] got = SimulatedNodes.doubles(result.finalParameters().values().iterator().next());
    assertThat(got).isEqualTo(SimulatedNodes.runClients(DpSecureSumAlgorithms.algorithm(), init,
        byId, Set.of(), config, rounds, SecAggPlus.secureSummation(SecAggSettings.of(16, 9, 16,
            3))));
    assertThat(got).isNotEqualTo(initial);
  }

  /**
   * Checks that {@code run} refuses the secure sum naming every node that {@code connected}
   * lists before it runs, and only those.
   */
  static void assertRefusesAll(Supplier<List<String>> connected, ThrowingCallable run) {
    List<String> ids = connected.get();
    assertThatThrownBy(run).isInstanceOfSatisfying(SecureSumRefusedException.class,
        e -> assertThat(e.incapableNodes()).containsOnlyKeys(ids));
  }

  /** What a test checks while the processes run. */
  @FunctionalInterface
  interface Check {
    void run() throws Exception;
  }

  /** Runs {@code check}, then stops the processes however it ended. */
  void stopAfter(Check check) throws Exception {
    try {
      check.run();
    } finally {
      stop();
    }
  }

  /** Stops the processes, asking each to end and waiting up to 60 s for it. */
  private void stop() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
    }
    for (Process p : processes) {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }
}
