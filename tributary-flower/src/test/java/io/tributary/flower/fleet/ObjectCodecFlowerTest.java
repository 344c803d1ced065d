package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.fleet.internal.ObjectCodec;
import io.tributary.flower.fleet.internal.proto.ObjectTree;
import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.MetricRecord;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Object ids, object contents and object trees computed by {@link ObjectCodec} against those
 * Flower 1.27 computes for the same message ({@code fleet/object_ids.py}): every dtype the
 * message API carries, non-ASCII and quoted keys, arrays cut into several chunks and arrays whose
 * chunks repeat, uint64 metrics, every config value type.
 */
@Timeout(300)
class ObjectCodecFlowerTest {
  @TempDir static Path dir;
  static String flowerRoot;
  static String flowerTree;
  static LinkedHashMap<String, byte[]> flowerObjects = new LinkedHashMap<>();

  @BeforeAll
  static void askFlower() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    Path script = dir.resolve("object_ids.py");
    try (InputStream in = ObjectCodecFlowerTest.class.getResourceAsStream("/fleet/object_ids.py")) {
      Files.copy(in, script);
    }
    String out = flower.run(dir, Duration.ofMinutes(3), script.toString());
    for (String line : out.split("\n")) {
      String[] f = line.split(" ");
      switch (f[0]) {
        case "MESSAGE" -> flowerRoot = f[1];
        case "TREE" -> flowerTree = f[1];
        case "OBJ" -> flowerObjects.put(f[1], Base64.getDecoder().decode(f[2]));
        default -> { }
      }
    }
    assertThat(flowerRoot).as(out).isNotNull();
  }

  static Message javaMessage() {
    float[] big = new float[1_600_000];
    for (int i = 0; i < big.length; i++) {
      big[i] = i;
    }
    LinkedHashMap<String, Tensor> arrays = new LinkedHashMap<>();
    arrays.put("w", Tensor.ofFloats(Shape.of(2, 3), 0, 1, 2, 3, 4, 5));
    arrays.put("b\u00e9\"x", Tensor.ofLongs(Shape.of(3), 1, -2, 3));
    arrays.put("scalar", Tensor.scalar(2.5));
    arrays.put("flags", Tensor.ofBooleans(Shape.of(2), true, false));
    arrays.put("u8", Tensor.fromLittleEndian(DType.UINT8, Shape.of(2, 2),
        new byte[] {1, 2, 3, (byte) 255}));
    arrays.put("names", Tensor.ofStrings(Shape.of(2), "ab", "c\u00e9"));
    arrays.put("big", Tensor.ofFloats(Shape.of(400, 4000), big));
    arrays.put("zeros", Tensor.zeros(DType.FLOAT32, Shape.of(4, 1024, 1024)));
    arrays.put("w-again", Tensor.ofFloats(Shape.of(2, 3), 0, 1, 2, 3, 4, 5));
    LinkedHashMap<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("num-examples", 10L);
    metrics.put("loss", 0.5);
    metrics.put("big", new BigInteger("18446744073709551615"));
    metrics.put("ints", List.of(1L, -2L));
    metrics.put("floats", List.of(0.25, 1.0));
    metrics.put("zero", 0L);
    LinkedHashMap<String, Object> config = new LinkedHashMap<>();
    config.put("server-round", 3L);
    config.put("lr", 0.01);
    config.put("name", "fedavg");
    config.put("on", true);
    config.put("raw", new byte[] {0, 1});
    config.put("strs", List.of("a", "b"));
    config.put("bools", List.of(true, false));
    config.put("bytes", List.of(new byte[] {'x'}));
    config.put("huge", List.of(BigInteger.ONE.shiftLeft(63).add(BigInteger.valueOf(5)), 1L));
    LinkedHashMap<String, io.tributary.flower.records.Record> content = new LinkedHashMap<>();
    content.put("arrays", ArrayRecord.fromTensors(arrays));
    content.put("metrics", new MetricRecord(metrics));
    content.put("config", new ConfigRecord(config));
    Metadata md = new Metadata(7, "", 1, 1234567890123L, "", "2", 43200.0, "train",
        1700000000.125);
    return Message.ofContent(md, new RecordDict(content));
  }

  static String tree(ObjectTree t) {
    List<String> kids = new ArrayList<>();
    for (ObjectTree c : t.getChildrenList()) {
      kids.add(tree(c));
    }
    return t.getObjectId() + "(" + String.join(",", kids) + ")";
  }

  @Test
  void deflate_sameMessageAsFlower_sameIdsContentsAndTree() {
    ObjectCodec.Deflated d = ObjectCodec.deflate(javaMessage());
    assertThat(d.rootId()).isEqualTo(flowerRoot);
    assertThat(tree(d.tree())).isEqualTo(flowerTree);
    assertThat(List.copyOf(d.objects().keySet())).isEqualTo(List.copyOf(flowerObjects.keySet()));
    for (Map.Entry<String, byte[]> e : flowerObjects.entrySet()) {
      assertThat(d.objects().get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(ObjectCodec.objectId(e.getValue())).isEqualTo(e.getKey());
    }
    // the 16 MiB of zeros are four chunks of which the middle two are one object
    String zerosId = d.objects().entrySet().stream()
        .filter(e -> new String(e.getValue(), java.nio.charset.StandardCharsets.ISO_8859_1)
            .contains("\"shape\": [4, 1024, 1024]"))
        .map(Map.Entry::getKey).findFirst().orElseThrow();
    assertThat(new String(flowerObjects.get(zerosId), java.nio.charset.StandardCharsets.UTF_8))
        .startsWith("Array ").contains("\"arraychunk_ids\": [0, 1, 1, 2]");
  }

  @Test
  void inflate_flowersObjects_equalsTheJavaMessage() throws Exception {
    Message m = ObjectCodec.inflate(flowerRoot, flowerObjects);
    Message expected = javaMessage();
    assertThat(m.metadata()).isEqualTo(expected.metadata().withMessageId(flowerRoot));
    assertThat(m.content()).isEqualTo(expected.content());
    Map<String, Tensor> tensors = ((ArrayRecord) m.content().get("arrays")).toTensors();
    Map<String, Tensor> want = ((ArrayRecord) expected.content().get("arrays")).toTensors();
    assertThat(tensors).isEqualTo(want);
    assertThat(tensors.get("names").getString(1)).isEqualTo("c\u00e9");
  }

  @Test
  void inflate_missingChild_refused() {
    LinkedHashMap<String, byte[]> objects = new LinkedHashMap<>(flowerObjects);
    objects.remove(objects.keySet().iterator().next());
    assertThatThrownBy(() -> ObjectCodec.inflate(flowerRoot, objects))
        .isInstanceOf(ObjectCodec.BadObjectException.class).hasMessageContaining("missing");
  }

  @Test
  void checkTree_treeThatDisagreesWithHeads_refused() {
    ObjectTree t = ObjectCodec.deflate(javaMessage()).tree();
    ObjectTree bad = t.toBuilder().setChildren(0, t.getChildren(0).toBuilder()
        .removeChildren(0)).build();
    assertThatThrownBy(() -> ObjectCodec.checkTree(bad, flowerObjects))
        .isInstanceOf(ObjectCodec.BadObjectException.class).hasMessageContaining("disagrees");
  }
}
