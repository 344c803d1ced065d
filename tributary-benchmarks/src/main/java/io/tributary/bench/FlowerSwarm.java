package io.tributary.bench;

import io.tributary.flower.Backoff;
import io.tributary.flower.ConnectionFailedException;
import io.tributary.flower.FlowerClientRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many Flower clients in one JVM, each a {@link FlowerClientRunner} with its own channel (its own
 * TCP connection), for the load test of {@code scripts/run-flower-load.sh}. Client {@code i} of
 * {@code N} adds {@code i / N} to every parameter with one example, so the FedAvg aggregate of a
 * round is the initial model plus {@code (N - 1) / (2N)}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.tributary.bench.FlowerSwarm HOST:PORT N
 * [TENSOR_TYPES]}; exits when every client has been disconnected by the server, printing how many
 * ended normally.
 */
public final class FlowerSwarm {
  private FlowerSwarm() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println("usage: FlowerSwarm HOST:PORT CLIENTS [TENSOR_TYPES]");
      System.exit(2);
    }
    String target = args[0];
    int n = Integer.parseInt(args[1]);
    List<String> types = args.length > 2 ? List.of(args[2].split(","))
        : List.of("numpy.ndarray");
    Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), 2, 0.2, 50, 1);
    AtomicInteger disconnected = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    List<Thread> threads = new ArrayList<>(n);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      FlowerClientRunner runner = FlowerClientRunner.builder(new ShiftClient((float) i / n))
          .target(target).tensorTypes(types).backoff(backoff.withSeed(i)).build();
      threads.add(Thread.ofVirtual().name("swarm-" + i).start(() -> {
        try {
          if (runner.run() == FlowerClientRunner.Outcome.DISCONNECTED_BY_SERVER) {
            disconnected.incrementAndGet();
          } else {
            failed.incrementAndGet();
          }
        } catch (ConnectionFailedException e) {
          System.err.println("client failed: " + e.getMessage());
          failed.incrementAndGet();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failed.incrementAndGet();
        }
      }));
    }
    System.err.printf("swarm: %d clients started in %.2f s%n", n,
        (System.nanoTime() - start) / 1e9);
    for (Thread t : threads) {
      t.join();
    }
    System.out.printf("swarm: %d clients disconnected by the server, %d failed, %.1f s%n",
        disconnected.get(), failed.get(), (System.nanoTime() - start) / 1e9);
    System.exit(failed.get() == 0 ? 0 : 1);
  }
}
