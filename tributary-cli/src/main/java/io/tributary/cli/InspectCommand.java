package io.tributary.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The {@code inspect} command: lists the tensors in an .npy, .npz or .pb file with statistics. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Print each tensor's name, dtype, shape and min/max/mean in an .npy, .npz or .pb file.")
final class InspectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "an .npy, .npz or .pb (serialized Parameters) file")
  Path file;

  @Option(names = "--json", description = "print a JSON array instead of a table")
  boolean json;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println(
        "tributary inspect: " + file + ": reading tensors is not available yet in this build");
    return ExitCodes.NOT_AVAILABLE;
  }
}
