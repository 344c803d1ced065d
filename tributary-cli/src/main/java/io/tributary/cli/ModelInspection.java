package io.tributary.cli;

import io.tributary.format.ArrayInfo;
import io.tributary.format.ModelFile;
import io.tributary.format.ModelTag;
import io.tributary.format.TrainingConfig;
import io.tributary.learning.json.Json;
import io.tributary.tensor.Shape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code inspect} prints for a .zip model file: its tags (newest marked), and for each its
 * training configuration, parameters (dtype, shape, the tag shared from) and updater state.
 * Read from the array headers alone, so it is fast for any file size.
 */
final class ModelInspection {
  private ModelInspection() {}

  /** One array's row. */
  private record Row(String name, ArrayInfo info) {}

  /** One tag, read. */
  private record TagView(ModelTag tag, boolean newest, List<Row> params, List<List<Row>> updater) {}

  private static List<TagView> read(ModelFile m) throws IOException {
    List<TagView> out = new ArrayList<>();
    for (ModelTag t : m.allTags()) {
      List<Row> params = new ArrayList<>();
      for (ArrayInfo i : t.parameterInfos()) {
        params.add(new Row(i.name(), i));
      }
      List<List<Row>> updater = new ArrayList<>();
      List<String> states = t.trainingConfig().updaterStateNames();
      for (String p : t.updaterParameterNames()) {
        List<Row> rows = new ArrayList<>();
        List<ArrayInfo> infos = t.updaterStateInfo(p);
        for (int i = 0; i < infos.size(); i++) {
          rows.add(new Row(i < states.size() ? states.get(i) : Integer.toString(i), infos.get(i)));
        }
        updater.add(rows);
      }
      out.add(new TagView(t, t.name().equals(m.newestTag()), params, updater));
    }
    return out;
  }

  /** The text report for {@code file}. */
  static String text(Path file) throws IOException {
    StringBuilder s = new StringBuilder();
    String nl = System.lineSeparator();
    try (ModelFile m = ModelFile.open(file)) {
      List<TagView> views = read(m);
      s.append("tags (oldest first): ");
      for (int i = 0; i < views.size(); i++) {
        s.append(i == 0 ? "" : ", ").append(views.get(i).tag().name()).append(views.get(i).newest() ? " (newest)" : "");
      }
      s.append(nl);
      for (TagView v : views) {
        s.append(nl).append("tag ").append(v.tag().name()).append(v.newest() ? " (newest)" : "")
            .append(v.tag().hasGraph() ? ", with graph" : ", no graph").append(nl);
        s.append("  training: ").append(configText(v.tag().trainingConfig())).append(nl);
        String[][] rows = new String[v.params().size() + 1][];
        rows[0] = new String[] {"parameter", "dtype", "shape", "shared from"};
        for (int i = 0; i < v.params().size(); i++) {
          ArrayInfo a = v.params().get(i).info();
          rows[i + 1] = new String[] {printable(a.name()), a.dtype().typeName(), shapeText(a.shape()),
              a.sharedFrom().orElse("-")};
        }
        table(s, rows, "  ");
        if (!v.updater().isEmpty()) {
          List<String[]> u = new ArrayList<>();
          u.add(new String[] {"updater state", "array", "dtype", "shape", "shared from"});
          for (List<Row> states : v.updater()) {
            for (Row r : states) {
              u.add(new String[] {printable(r.info().name()), r.name(), r.info().dtype().typeName(),
                  shapeText(r.info().shape()), r.info().sharedFrom().orElse("-")});
            }
          }
          table(s, u.toArray(new String[0][]), "  ");
        }
      }
    }
    return s.toString();
  }

  private static String configText(TrainingConfig c) {
    if (c.optimizer().isEmpty() && c.iterationCount() == 0 && c.round() == 0) {
      return "none";
    }
    StringBuilder s = new StringBuilder(c.optimizer().isEmpty() ? "no optimizer" : c.optimizer());
    for (Map.Entry<String, Double> e : c.hyperparameters().entrySet()) {
      s.append(", ").append(e.getKey()).append('=').append(TensorSummary.text(e.getValue()));
    }
    if (!c.lossVariables().isEmpty()) {
      s.append("; loss ").append(String.join(", ", c.lossVariables()));
    }
    s.append("; round ").append(c.round()).append(", iteration ").append(c.iterationCount())
        .append(", epoch ").append(c.epochCount());
    if (!c.updaterStateNames().isEmpty()) {
      s.append("; updater state ").append(String.join(", ", c.updaterStateNames()));
    }
    return printable(s.toString());
  }

  private static void table(StringBuilder out, String[][] rows, String indent) {
    int[] widths = new int[rows[0].length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].codePointCount(0, row[c].length()));
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int c = 0; c < row.length; c++) {
        line.append(row[c]);
        if (c < row.length - 1) {
          line.append(" ".repeat(widths[c] - row[c].codePointCount(0, row[c].length()) + 2));
        }
      }
      out.append(line).append(System.lineSeparator());
    }
  }

  private static String shapeText(Shape shape) {
    return new TensorSummary("", "", shape, null).shapeText();
  }

  private static String printable(String name) {
    return new TensorSummary(name, "", Shape.scalar(), null).printableName();
  }

  /** The JSON report for {@code file}: one object with a "tags" array. */
  static String json(Path file) throws IOException {
    String nl = System.lineSeparator();
    StringBuilder s = new StringBuilder("{\"tags\": [").append(nl);
    try (ModelFile m = ModelFile.open(file)) {
      List<TagView> views = read(m);
      for (int t = 0; t < views.size(); t++) {
        TagView v = views.get(t);
        TrainingConfig c = v.tag().trainingConfig();
        s.append("  {\"name\": ").append(Json.string(v.tag().name()))
            .append(", \"newest\": ").append(v.newest())
            .append(", \"graph\": ").append(v.tag().hasGraph())
            .append(", \"trainingConfig\": {\"optimizer\": ").append(Json.string(c.optimizer()))
            .append(", \"hyperparameters\": {");
        int i = 0;
        for (Map.Entry<String, Double> e : c.hyperparameters().entrySet()) {
          s.append(i++ == 0 ? "" : ", ").append(Json.string(e.getKey())).append(": ").append(Json.number(e.getValue()));
        }
        s.append("}, \"lossVariables\": ").append(strings(c.lossVariables()))
            .append(", \"updaterStateNames\": ").append(strings(c.updaterStateNames()))
            .append(", \"round\": ").append(c.round())
            .append(", \"iterationCount\": ").append(c.iterationCount())
            .append(", \"epochCount\": ").append(c.epochCount())
            .append("},").append(nl).append("   \"parameters\": [");
        for (int p = 0; p < v.params().size(); p++) {
          s.append(p == 0 ? "" : ", ").append(array(v.params().get(p).info(), null));
        }
        s.append("],").append(nl).append("   \"updaterState\": [");
        for (int p = 0; p < v.updater().size(); p++) {
          List<Row> states = v.updater().get(p);
          s.append(p == 0 ? "" : ", ").append("{\"name\": ").append(Json.string(states.get(0).info().name()))
              .append(", \"arrays\": [");
          for (int k = 0; k < states.size(); k++) {
            s.append(k == 0 ? "" : ", ").append(array(states.get(k).info(), states.get(k).name()));
          }
          s.append("]}");
        }
        s.append("]}").append(t < views.size() - 1 ? "," : "").append(nl);
      }
    }
    return s.append("]}").append(nl).toString();
  }

  private static String array(ArrayInfo a, String state) {
    StringBuilder s = new StringBuilder("{");
    s.append(state == null ? "\"name\": " + Json.string(a.name()) : "\"state\": " + Json.string(state))
        .append(", \"dtype\": ").append(Json.string(a.dtype().typeName())).append(", \"shape\": [");
    for (int i = 0; i < a.shape().rank(); i++) {
      s.append(i == 0 ? "" : ", ").append(a.shape().dim(i));
    }
    return s.append("], \"sharedFrom\": ").append(a.sharedFrom().map(Json::string).orElse("null"))
        .append(", \"entry\": ").append(Json.string(a.entry())).append('}').toString();
  }

  private static String strings(List<String> values) {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(Json.string(values.get(i)));
    }
    return s.append(']').toString();
  }
}
