package io.tributary.cli;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code inspect} command: lists the tensors in an .npy, .npz or .pb file with statistics,
 * or the tags, parameters, updater state and training configuration of a .zip model file.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print each tensor's name, dtype, shape and min/max/mean in an .npy, .npz or .pb file.",
      "A .pb file is a serialized Flower Parameters message, decoded by its tensor_type, or a",
      "serialized federated_language.Computation, whose type and body are printed.",
      "Complex tensors are summarised by magnitude |z|; strings and empty tensors have no statistics.",
      "For a .zip model file: its tags (newest marked) and, per tag, the training configuration, "
          + "the parameters (dtype, shape, the tag each is shared from) and the updater state.",
      "Exits with 2, printing one line on stderr, when the file cannot be read."
    })
final class InspectCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "an .npy, .npz, .pb (serialized Parameters or"
      + " Computation) or .zip (model) file")
  Path file;

  @Option(
      names = "--json",
      description = "print a JSON array of {name, dtype, shape, min, max, mean}; statistics that are "
          + "absent are null, NaN and infinities are the strings \"NaN\", \"Infinity\", \"-Infinity\"."
          + " For a computation: {type, body}, both strings")
  boolean json;

  @Override
  public Integer call() {
    try {
      TensorFiles.requireRegularFile(file);
    } catch (IOException e) {
      return Problems.report(spec.commandLine().getErr(), "inspect", file, e);
    }
    if (isModel()) {
      return inspectModel();
    }
    try {
      if (isPb() && ComputationInspection.isComputation(file)) {
        return print(ComputationInspection.report(file, json));
      }
    } catch (IOException e) {
      return Problems.report(spec.commandLine().getErr(), "inspect", file, e);
    }
    SequencedMap<String, Tensor> tensors;
    try {
      tensors = new TensorFiles(SerializerRegistry.load()).read(file);
    } catch (IOException e) {
      return Problems.report(spec.commandLine().getErr(), "inspect", file, e);
    }
    List<TensorSummary> summaries = new ArrayList<>(tensors.size());
    for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
      summaries.add(TensorSummary.of(e.getKey(), e.getValue()));
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? InspectOutput.json(summaries) : InspectOutput.table(summaries));
    out.flush();
    return 0;
  }

  private boolean isPb() {
    try {
      return TensorFormat.of(file) == TensorFormat.PB;
    } catch (TensorFileException e) {
      return false; // the tensor path reports the unknown extension
    }
  }

  private int print(String report) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(report);
    out.flush();
    return 0;
  }

  private boolean isModel() {
    try {
      return TensorFormat.of(file) == TensorFormat.MODEL;
    } catch (TensorFileException e) {
      return false; // call() reports the unknown extension
    }
  }

  private int inspectModel() {
    String report;
    try {
      if (java.nio.file.Files.isDirectory(file)) {
        throw new TensorFileException("is a directory, not a tensor file");
      }
      report = json ? ModelInspection.json(file) : ModelInspection.text(file);
    } catch (IOException e) {
      return Problems.report(spec.commandLine().getErr(), "inspect", file, e);
    }
    return print(report);
  }
}
