package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DigitsTest {

  @Test
  void load_embedded_1797ExamplesScaledWithKnownCounts() {
    Dataset d = Digits.load();
    assertThat(d.name()).isEqualTo("digits");
    assertThat(d.size()).isEqualTo(1797);
    assertThat(d.exampleShape()).containsExactly(64);
    assertThat(d.numClasses()).isEqualTo(10);
    // Class sizes of the UCI test set as scikit-learn ships it.
    assertThat(d.labelCounts()).containsExactly(178, 182, 177, 183, 181, 182, 181, 179, 174, 180);
    float[] x = d.features().toFloatArray();
    float max = 0;
    for (float v : x) {
      assertThat(v).isBetween(0f, 1f);
      // Pixel counts 0..16 divided by 16 are exact in float32.
      assertThat(v * 16).isEqualTo((float) Math.rint(v * 16));
      max = Math.max(max, v);
    }
    assertThat(max).isEqualTo(1f);
    // First row of digits.csv.gz: 0,0,5,13,9,1,0,0,... label 0.
    assertThat(x[2]).isEqualTo(5 / 16f);
    assertThat(x[3]).isEqualTo(13 / 16f);
    assertThat(d.label(0)).isZero();
    assertThat(d.label(1)).isEqualTo(1);
    assertThat(d.label(1796)).isEqualTo(8);
  }

  @Test
  void load_split_stratifiedAndDeterministic() {
    TrainTestSplit s = Digits.load(0.2, 42);
    assertThat(s.train().size() + s.test().size()).isEqualTo(1797);
    long[] test = s.test().labelCounts();
    long[] all = Digits.load().labelCounts();
    for (int c = 0; c < 10; c++) {
      assertThat(test[c]).isEqualTo(Math.round(0.2 * all[c]));
    }
    assertThat(Digits.load(0.2, 42).test().features()).isEqualTo(s.test().features());
    assertThat(Digits.load(0.2, 43).test().features()).isNotEqualTo(s.test().features());
  }

  @Test
  void notice_inResources_creditsUciUnderCcBy4() throws IOException {
    try (InputStream in = Digits.class.getResourceAsStream("NOTICE")) {
      assertThat(in).isNotNull();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(text).contains("UCI Machine Learning Repository")
          .contains("Optical Recognition of Handwritten Digits")
          .contains("Alpaydin").contains("Kaynak").contains("CC BY 4.0");
    }
  }
}
