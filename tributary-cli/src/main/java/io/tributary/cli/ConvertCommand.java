package io.tributary.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The {@code convert} command: converts tensors between .npz and .pb (serialized Parameters). */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Convert tensors between .npz and .pb files, keeping names, order, dtypes, shapes and values.")
final class ConvertCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "IN", description = "the .npz or .pb file to read")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "the .npz or .pb file to write")
  Path out;

  @Option(
      names = "--tensor-type",
      paramLabel = "TYPE",
      defaultValue = "proto.ndarray",
      description = "the FEP-0002 tensor type for .pb output: proto.ndarray (default) or numpy.ndarray")
  String tensorType;

  @Override
  public Integer call() {
    spec.commandLine().getErr().println(
        "tributary convert: " + in + ": converting tensors is not available yet in this build");
    return ExitCodes.NOT_AVAILABLE;
  }
}
