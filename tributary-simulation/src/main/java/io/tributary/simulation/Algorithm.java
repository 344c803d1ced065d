package io.tributary.simulation;

import java.util.Locale;

/** The federated algorithm of a simulation (the {@code --algorithm} value). */
public enum Algorithm {
  /** Federated Averaging (McMahan et al. 2017). */
  FEDAVG,
  /** FedProx (Li et al. 2020): FedAvg with a proximal term of weight mu in the client loss. */
  FEDPROX;

  /** The lower-case name used on the command line. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Reads the short form.
   *
   * @throws IllegalArgumentException naming the value and the algorithms there are
   */
  public static Algorithm parse(String text) {
    for (Algorithm a : values()) {
      if (a.cliName().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + text + "': use fedavg or fedprox");
  }
}
