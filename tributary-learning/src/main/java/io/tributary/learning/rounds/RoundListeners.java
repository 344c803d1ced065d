package io.tributary.learning.rounds;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Several {@link RoundListener}s told as one: each event goes to every listener in order (the
 * first failure stops the run, as one listener's would); {@link #close} closes them last first,
 * each whatever the others did, throwing the first failure with the later ones suppressed.
 */
public final class RoundListeners implements RoundListener {
  private final List<RoundListener> listeners;

  private RoundListeners(List<RoundListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** {@code listeners} as one listener, told in the order given. */
  public static RoundListener of(RoundListener... listeners) {
    return of(List.of(listeners));
  }

  /** {@code listeners} as one listener, told in list order. */
  public static RoundListener of(List<? extends RoundListener> listeners) {
    return listeners.size() == 1 ? listeners.getFirst()
        : new RoundListeners(List.copyOf(listeners));
  }

  @Override
  public void started(RunStart start) throws IOException {
    for (RoundListener l : listeners) {
      l.started(start);
    }
  }

  @Override
  public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters)
      throws IOException {
    for (RoundListener l : listeners) {
      l.roundEnded(metrics, parameters);
    }
  }

  @Override
  public void roundEnded(RoundRecord metrics, SequencedMap<String, Tensor> parameters,
      Optional<UpdaterState> updater) throws IOException {
    for (RoundListener l : listeners) {
      l.roundEnded(metrics, parameters, updater);
    }
  }

  @Override
  public void roundStarted(int round) {
    for (RoundListener l : listeners) {
      l.roundStarted(round);
    }
  }

  @Override
  public void stage(int round, String stage, int clients) {
    for (RoundListener l : listeners) {
      l.stage(round, stage, clients);
    }
  }

  @Override
  public void clientReported(int round, String client) {
    for (RoundListener l : listeners) {
      l.clientReported(round, client);
    }
  }

  @Override
  public void clientFailed(int round, String client, String reason) {
    for (RoundListener l : listeners) {
      l.clientFailed(round, client, reason);
    }
  }

  @Override
  public void traffic(int round, long bytesUp, long bytesDown) {
    for (RoundListener l : listeners) {
      l.traffic(round, bytesUp, bytesDown);
    }
  }

  @Override
  public void stageEnded(int round, String stage, int reported, List<String> failures) {
    for (RoundListener l : listeners) {
      l.stageEnded(round, stage, reported, failures);
    }
  }

  /** The first listener's reason to stop, asking every listener (each sees every round). */
  @Override
  public Optional<String> stopAfter(RoundRecord round) {
    Optional<String> why = Optional.empty();
    for (RoundListener l : listeners) {
      Optional<String> w = l.stopAfter(round);
      if (why.isEmpty()) {
        why = w;
      }
    }
    return why;
  }

  @Override
  public void finished(RunEnd end) throws IOException {
    for (RoundListener l : listeners) {
      l.finished(end);
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (RoundListener l : listeners.reversed()) {
      try {
        l.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
