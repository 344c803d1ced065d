import io.tributary.learning.rounds.RoundListener;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.simulation.DatasetSpec;
import io.tributary.simulation.ModelKind;
import io.tributary.simulation.Simulation;
import io.tributary.simulation.SimulationSettings;
import io.tributary.tensor.Tensor;
import io.tributary.ui.LiveView;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * In one JVM, what a simulation's per-client events cost apart from the page's rendering: rounds
 * of CLIENTS generated clients without a listener (the anchor), with a listener that counts the
 * client events, with a LiveView and no viewer, and with a LiveView and a viewer reading its event
 * stream (the page rendered at most every 100 ms), in turn, REPEATS times after a warm-up run;
 * each run's first round left out. Prints the median seconds per round of each and the events counted.
 *
 * <p>Run by run-live-counts.sh: {@code java -cp tributary.jar LiveCountsBench.java CLIENTS
 * ROUNDS REPEATS}.
 */
public class LiveCountsBench {
  static final LongAdder EVENTS = new LongAdder();

  static RoundListener counting() {
    return new RoundListener() {
      @Override
      public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters) {}

      @Override
      public void clientReported(int round, String client) {
        EVENTS.increment();
      }

      @Override
      public void clientFailed(int round, String client, String reason) {
        EVENTS.increment();
      }
    };
  }

  static List<Double> run(int clients, int rounds, String with, Path dir) throws Exception {
    SimulationSettings settings = SimulationSettings.builder()
        .dataset(DatasetSpec.parse("generated:60,10,10")).model(ModelKind.MCLR).clients(clients)
        .clientsPerRound(clients).rounds(rounds).seed(1)
        .out(Files.createTempDirectory(dir, with)).build();
    Simulation.Builder b = Simulation.builder(settings);
    LiveView view = null;
    switch (with) {
      case "counting" -> b.listener(counting());
      case "liveview", "viewer" -> {
        view = LiveView.builder().address("127.0.0.1", 0).start();
        b.listener(view);
      }
      default -> { }
    }
    HttpClient http = HttpClient.newHttpClient();
    if (with.equals("viewer")) {
      // A viewer reading the page's event stream, as a browser does: the page renders for it.
      http.sendAsync(HttpRequest.newBuilder(view.uri().resolve("/events")).build(),
          HttpResponse.BodyHandlers.ofLines()).thenAccept(r -> r.body().forEach(l -> { }));
      Thread.sleep(200);
    }
    try {
      List<RoundRecord> r = b.build().run().history().rounds();
      List<Double> out = new ArrayList<>();
      for (int i = 1; i < r.size(); i++) {
        out.add(r.get(i).seconds());
      }
      return out;
    } finally {
      if (view != null) {
        view.close();
      }
      http.close();
    }
  }

  static double median(List<Double> v) {
    List<Double> s = new ArrayList<>(v);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  public static void main(String[] args) throws Exception {
    int clients = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int repeats = Integer.parseInt(args[2]);
    Path dir = Files.createTempDirectory("live-counts");
    String[] kinds = {"none", "counting", "liveview", "viewer"};
    run(clients, rounds, "none", dir);
    List<List<Double>> seconds = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
        new ArrayList<>());
    for (int i = 0; i < repeats; i++) {
      for (int k = 0; k < kinds.length; k++) {
        seconds.get(k).addAll(run(clients, rounds, kinds[k], dir));
      }
    }
    long perRound = EVENTS.sum() / ((long) repeats * rounds);
    System.out.printf("load average %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
    System.out.printf("in one JVM, %d clients a round, %d rounds each, %d client events a round:%n",
        clients, seconds.get(0).size(), perRound);
    for (int k = 0; k < kinds.length; k++) {
      System.out.printf("  %-9s median %.3f s/round%n", kinds[k], median(seconds.get(k)));
    }
  }
}
