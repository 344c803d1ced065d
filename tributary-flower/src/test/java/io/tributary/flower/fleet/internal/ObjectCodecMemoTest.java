package io.tributary.flower.fleet.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.records.ArrayRecord;
import io.tributary.flower.records.ConfigRecord;
import io.tributary.flower.records.Message;
import io.tributary.flower.records.Metadata;
import io.tributary.flower.records.RecordDict;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ObjectCodec.Memo}: one model sent to many nodes is deflated once, and each message is
 * deflated exactly as without the memo.
 */
class ObjectCodecMemoTest {
  private static Message message(long node, ArrayRecord arrays, long round) {
    return Message.ofContent(new Metadata(7, "", 1, node, "", "", 3600, "train", 1.5e9 + node),
        RecordDict.of("arrays", arrays, "config",
            new ConfigRecord(Map.of("server-round", round))));
  }

  private static ArrayRecord model(double v) {
    double[] w = new double[(ObjectCodec.CHUNK_SIZE / 8) + 10];
    java.util.Arrays.fill(w, v);
    return ArrayRecord.fromTensors(Map.of("w", Tensor.ofDoubles(Shape.of(w.length), w)));
  }

  @Test
  void deflate_sameArrayRecordForManyNodes_sameAsWithoutMemoAndSharesTheObjects() {
    ObjectCodec.Memo memo = new ObjectCodec.Memo();
    ArrayRecord arrays = model(0.5);
    ObjectCodec.Deflated first = ObjectCodec.deflate(message(11, arrays, 1), memo);
    ObjectCodec.Deflated second = ObjectCodec.deflate(message(12, arrays, 1), memo);
    ObjectCodec.Deflated plain = ObjectCodec.deflate(message(12, arrays, 1));
    assertThat(second.rootId()).isEqualTo(plain.rootId()).isNotEqualTo(first.rootId());
    assertThat(second.tree()).isEqualTo(plain.tree());
    assertThat(new ArrayList<>(second.objects().keySet()))
        .isEqualTo(new ArrayList<>(plain.objects().keySet()));
    second.objects().forEach((id, c) -> assertThat(c).isEqualTo(plain.objects().get(id)));
    // The model's objects (two chunks, the array, the record) are the very same bytes.
    long shared = second.objects().entrySet().stream()
        .filter(e -> e.getValue() == first.objects().get(e.getKey())).count();
    assertThat(shared).isEqualTo(4);
  }

  @Test
  void deflate_newArrayRecord_deflatedAnewNotTheLastOnes() {
    ObjectCodec.Memo memo = new ObjectCodec.Memo();
    ObjectCodec.deflate(message(11, model(0.5), 1), memo);
    ObjectCodec.Deflated next = ObjectCodec.deflate(message(11, model(1.5), 2), memo);
    assertThat(next.rootId())
        .isEqualTo(ObjectCodec.deflate(message(11, model(1.5), 2)).rootId());
    assertThat(next.objects().keySet())
        .isEqualTo(ObjectCodec.deflate(message(11, model(1.5), 2)).objects().keySet());
  }
}
