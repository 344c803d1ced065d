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
      ServerCommand.class,
      ClientCommand.class,
      InspectCommand.class,
      ConvertCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @Spec CommandSpec spec;

  /** Runs the command line and ends the JVM with the command's exit status. */
  public static void main(String[] args) {
    StandardError.reclaim();
    System.exit(commandLine().execute(args));
  }

  /**
   * The command line, ready to execute. A usage error in {@code simulate} or {@code client} is
   * reported in one line, without the usage text: its help is long, and the line names the option
   * at fault.
   */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    CommandLine.IParameterExceptionHandler standard = cli.getParameterExceptionHandler();
    cli.setParameterExceptionHandler((ex, args) -> {
      CommandLine at = ex.getCommandLine();
      String name = at.getCommand() instanceof SimulateCommand ? "simulate"
          : at.getCommand() instanceof ServerCommand ? "server"
          : at.getCommand() instanceof ClientCommand ? "client" : null;
      if (name == null) {
        return standard.handleParseException(ex, args);
      }
      at.getErr().println("tributary " + name + ": " + ex.getMessage().replaceAll("\\R", " ")
          + " (see tributary " + name + " --help)");
      at.getErr().flush();
      return ExitCodes.BAD_INPUT;
    });
    return cli;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "Missing command: choose one of simulate, server, client, inspect, convert");
  }
}
