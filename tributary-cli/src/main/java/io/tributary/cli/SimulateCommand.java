package io.tributary.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code simulate} command, which will run a federated simulation once the runtime exists.
 *
 * <p>Until then it says plainly that this build cannot simulate, and exits with
 * {@link ExitCodes#NOT_AVAILABLE}, rather than pretending to train.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run a federated simulation (FedAvg / FedProx over a simulated client population).",
      "Not available yet in this build: it exits with status 3 until the federated runtime "
          + "(the tributary-runtime module) lands."
    })
final class SimulateCommand implements Callable<Integer> {
  static final String NOT_AVAILABLE_MESSAGE =
      "tributary simulate: federated simulation is not available yet in this build; it arrives with "
          + "the federated runtime issue (module tributary-runtime: execution contexts, simulated "
          + "populations, FedAvg/FedProx). Available now: tributary inspect, tributary convert.";

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println(NOT_AVAILABLE_MESSAGE);
    return ExitCodes.NOT_AVAILABLE;
  }
}
