package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Fuzzes the CSV loader under fuzzed options: any bytes load as a dataset with one label per
 * example, all below the class count, or fail with {@link DatasetFormatException}.
 */
class CsvLoaderFuzzTest {
  private static final char[] DELIMITERS = {',', ';', '\t', ' ', '|'};

  @FuzzTest(maxDuration = "5s")
  void load(FuzzedDataProvider data) throws IOException {
    CsvLoader.Builder b = CsvLoader.builder()
        .delimiter(data.pickValue(DELIMITERS))
        .numClasses(data.consumeInt(0, 20))
        .maxInferredClasses(data.consumeInt(1, 1000))
        .maxLineLength(data.consumeInt(1, 4096))
        .maxValues(data.consumeLong(1, 1 << 16));
    if (data.consumeBoolean()) {
      b.header(true).labelColumn(data.consumeString(8));
    } else {
      b.header(data.consumeBoolean()).labelColumn(data.consumeInt(-4, 4));
    }
    byte[] csv = data.consumeRemainingAsBytes();
    Dataset d;
    try {
      d = b.build().load(new ByteArrayInputStream(csv), "fuzz.csv");
    } catch (DatasetFormatException e) {
      assertThat(e.getMessage()).contains("fuzz.csv");
      return;
    }
    assertThat(d.labels().size()).isEqualTo(d.size());
    assertThat(d.features().shape().dim(0)).isEqualTo(d.size());
    for (int i = 0; i < d.size(); i++) {
      assertThat(d.label(i)).isBetween(0, d.numClasses() - 1);
    }
  }
}
