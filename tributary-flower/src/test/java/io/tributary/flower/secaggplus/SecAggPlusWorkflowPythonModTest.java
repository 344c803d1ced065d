package io.tributary.flower.secaggplus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.flower.fleet.FlowerPeer;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Tensor;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SecAggPlusWorkflow} against Flower 1.27's own {@code secaggplus_mod}: five Python nodes,
 * each Flower's mod around a NumPyClient-style fit in one Python process, are sent each stage's
 * {@code secaggplus_configs} over a line protocol; one node drops before its masked vector. The
 * Java-unmasked mean must equal the example-weighted mean of the four survivors' inputs.
 */
@Timeout(300)
class SecAggPlusWorkflowPythonModTest {
  @TempDir Path dir;

  /** Node i's input: [i, -i/2, 0.25] with 10 * i examples. */
  private static final String NODES = """
      import sys, base64
      import numpy as np
      from flwr.common import (Message, RecordDict, ConfigRecord, Context, FitRes, Status, Code,
                               ndarrays_to_parameters)
      from flwr.common import recorddict_compat as compat
      from flwr.client.mod import secaggplus_mod

      ids = [int(x) for x in sys.argv[1].split(",")]
      drop = int(sys.argv[2])
      ctxs = {nid: Context(1, nid, {}, RecordDict(), {}) for nid in ids}

      def fit_for(i):
          def call_next(msg, ctxt):
              arr = np.array([i, -i / 2, 0.25], dtype=np.float32)
              res = FitRes(Status(Code.OK, "ok"), ndarrays_to_parameters([arr]), 10 * i, {})
              return Message(compat.fitres_to_recorddict(res, keep_input=True), reply_to=msg)
          return call_next

      def dec(t, v):
          if t == "s": return base64.b64decode(v).decode()
          if t == "i": return int(v)
          if t == "f": return float(v)
          if t == "b": return base64.b64decode(v)
          if t == "li": return [] if v == "-" else [int(x) for x in v.split(",")]
          if t == "lb": return [] if v == "-" else [base64.b64decode(x) for x in v.split(",")]
          raise ValueError(t)

      def enc(v):
          if isinstance(v, bool): raise ValueError("bool")
          if isinstance(v, str): return "s", base64.b64encode(v.encode()).decode()
          if isinstance(v, int): return "i", str(v)
          if isinstance(v, float): return "f", repr(v)
          if isinstance(v, bytes): return "b", base64.b64encode(v).decode()
          if isinstance(v, list) and all(isinstance(x, bytes) for x in v):
              return "lb", ",".join(base64.b64encode(x).decode() for x in v) or "-"
          if isinstance(v, list): return "li", ",".join(str(x) for x in v) or "-"
          raise ValueError(type(v))

      stage, msgs, cur = None, {}, None
      for line in sys.stdin:
          f = line.split()
          if f[0] == "STAGE":
              stage, msgs = f[1], {}
          elif f[0] == "MSG":
              cur = int(f[1]); msgs[cur] = {}
          elif f[0] == "V":
              msgs[cur][f[1]] = dec(f[2], f[3])
          elif f[0] == "END":
              out = []
              for nid, cfg in msgs.items():
                  i = ids.index(nid) + 1
                  if stage == "collect_masked_vectors" and nid == drop:
                      continue
                  msg = Message(RecordDict({"secaggplus_configs": ConfigRecord(cfg)}),
                                dst_node_id=nid, message_type="train")
                  try:
                      reply = secaggplus_mod(msg, ctxs[nid], fit_for(i))
                  except Exception as e:
                      out.append("ERR %d %s" % (nid, type(e).__name__))
                      continue
                  out.append("MSG %d" % nid)
                  for k, v in reply.content.config_records["secaggplus_configs"].items():
                      t, s = enc(v)
                      out.append("V %s %s %s" % (k, t, s))
              print("\\n".join(out + ["END"]), flush=True)
      """;

  @Test
  void run_flowerSecaggplusModNodesOneDropping_meanOfTheSurvivorsInputs() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    List<Long> ids = List.of(101L, 202L, -3L, 404L, 505L);   // -3: above 2^63 unsigned
    Path script = Files.writeString(dir.resolve("nodes.py"), NODES);
    String idList = String.join(",", ids.stream().map(Long::toUnsignedString).toList());
    ProcessBuilder pb = new ProcessBuilder(flower.python.toString(), script.toString(), idList,
        "404").redirectError(dir.resolve("nodes.err").toFile());
    pb.environment().put("PYTHONPATH", flower.pythonPath);
    Process p = pb.start();
    try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(),
        StandardCharsets.UTF_8));
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
      SecAggPlusWorkflow.Nodes nodes = (stage, contents) -> {
        try {
          return exchange(w, r, stage, contents);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      };
      SecAggPlusResult result = new SecAggPlusWorkflow(new SecAggPlusSettings(5, 3, 8.0,
          1L << 22, 1L << 32, 100.0)).run(ids, Map.of(), nodes);
      assertThat(result.survivors()).containsExactlyInAnyOrder(101L, 202L, -3L, 505L);
      assertThat(result.failures()).containsOnlyKeys(404L);
      // survivors i = 1, 2, 3, 5 with 10 i examples: the weighted mean of [i, -i/2, 0.25]
      double wsum = 1 + 2 + 3 + 5;
      double mean = (1 * 1 + 2 * 2 + 3 * 3 + 5 * 5) / wsum;
      Tensor t = result.mean().getFirst();
      assertThat(t.getDouble(0)).isCloseTo(mean, within(1e-3));
      assertThat(t.getDouble(1)).isCloseTo(-mean / 2, within(1e-3));
      assertThat(t.getDouble(2)).isCloseTo(0.25, within(1e-3));
    } finally {
      p.destroy();
      p.waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(Files.readString(dir.resolve("nodes.err"))).doesNotContain("Traceback");
  }

  private static Map<Long, RecordDict> exchange(BufferedWriter w, BufferedReader r, String stage,
      Map<Long, RecordDict> contents) throws java.io.IOException {
    StringBuilder s = new StringBuilder("STAGE " + stage + "\n");
    Base64.Encoder b64 = Base64.getEncoder();
    contents.forEach((id, content) -> {
      s.append("MSG ").append(Long.toUnsignedString(id)).append('\n');
      ((ConfigRecord) content.get("secaggplus_configs")).values().forEach((k, v) -> {
        s.append("V ").append(k).append(' ');
        switch (v) {
          case String str -> s.append("s ").append(b64.encodeToString(str.getBytes(
              StandardCharsets.UTF_8)));
          case Long l -> s.append("i ").append(l);
          case BigInteger bi -> s.append("i ").append(bi);
          case Double d -> s.append("f ").append(d);
          case byte[] b -> s.append("b ").append(b64.encodeToString(b));
          case List<?> list when !list.isEmpty() && list.getFirst() instanceof byte[] -> s
              .append("lb ").append(String.join(",", list.stream()
                  .map(x -> b64.encodeToString((byte[]) x)).toList()));
          case List<?> list -> s.append("li ").append(list.isEmpty() ? "-"
              : String.join(",", list.stream().map(String::valueOf).toList()));
          default -> throw new IllegalArgumentException(k + ": " + v);
        }
        s.append('\n');
      });
    });
    w.write(s.append("END\n").toString());
    w.flush();
    Map<Long, RecordDict> out = new HashMap<>();
    Long cur = null;
    Map<String, Object> values = null;
    Base64.Decoder d = Base64.getDecoder();
    for (String line = r.readLine(); line != null && !line.equals("END"); line = r.readLine()) {
      String[] f = line.split(" ");
      if (f[0].equals("MSG")) {
        if (cur != null) {
          out.put(cur, RecordDict.of("secaggplus_configs", new ConfigRecord(values)));
        }
        cur = Long.parseUnsignedLong(f[1]);
        values = new LinkedHashMap<>();
      } else if (f[0].equals("V")) {
        String v = f[3];
        values.put(f[1], switch (f[2]) {
          case "i" -> new BigInteger(v);
          case "b" -> d.decode(v);
          case "li" -> v.equals("-") ? List.of()
              : java.util.Arrays.stream(v.split(",")).map(BigInteger::new).toList();
          case "lb" -> v.equals("-") ? List.of()
              : java.util.Arrays.stream(v.split(",")).map(d::decode).toList();
          default -> throw new IllegalArgumentException(line);
        });
      }
    }
    if (cur != null) {
      out.put(cur, RecordDict.of("secaggplus_configs", new ConfigRecord(values)));
    }
    return out;
  }
}
