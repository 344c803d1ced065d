package io.tributary.learning.rounds;

import io.tributary.tensor.Tensor;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Several listeners as one, for a binding that takes one ({@code FlowerServer.run}): each event
 * goes to every listener in order; the first {@link IOException} stops the run as a single
 * listener's would. {@link #close} closes every listener whatever happens, the first failure
 * thrown with the later ones suppressed.
 */
public final class RoundListeners implements RoundListener {
  private final List<RoundListener> listeners;

  private RoundListeners(List<RoundListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** {@code listeners}, told in this order. */
  public static RoundListener of(RoundListener... listeners) {
    return new RoundListeners(List.of(listeners));
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
  public void finished(RunEnd end) throws IOException {
    for (RoundListener l : listeners) {
      l.finished(end);
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    RuntimeException firstUnchecked = null;
    for (RoundListener l : listeners) {
      try {
        l.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      } catch (RuntimeException e) {
        if (firstUnchecked == null) {
          firstUnchecked = e;
        } else {
          firstUnchecked.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      if (firstUnchecked != null) {
        first.addSuppressed(firstUnchecked);
      }
      throw first;
    }
    if (firstUnchecked != null) {
      throw firstUnchecked;
    }
  }
}
