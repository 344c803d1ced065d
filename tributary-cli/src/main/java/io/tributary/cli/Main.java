package io.tributary.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code tributary} command, which only dispatches to its subcommands. */
@Command(
    name = "tributary",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Federated learning on the JVM.",
    subcommands = {
      SimulateCommand.class,
      InspectCommand.class,
      ConvertCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @Spec CommandSpec spec;

  /** Runs the command line and ends the JVM with the command's exit status. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: choose one of simulate, inspect, convert");
  }
}
