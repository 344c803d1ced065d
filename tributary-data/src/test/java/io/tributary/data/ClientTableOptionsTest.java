package io.tributary.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The options CSV and Parquet readers share: one builder's checks and values for both. */
class ClientTableOptionsTest {
  private static final Path FILE = Path.of("t.csv");

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of((Consumer<ClientTableOptions.Builder<?>>) b -> b.numClasses(-1),
            "numClasses must be >= 0, got -1"),
        Arguments.of((Consumer<ClientTableOptions.Builder<?>>) b -> b.maxInferredClasses(0),
            "maxInferredClasses must be >= 1, got 0"),
        Arguments.of((Consumer<ClientTableOptions.Builder<?>>) b -> b.testFraction(1),
            "testFraction must be in (0, 1), got 1.0"),
        Arguments.of((Consumer<ClientTableOptions.Builder<?>>) b -> b.testFraction(Double.NaN),
            "testFraction must be in (0, 1), got NaN"),
        Arguments.of((Consumer<ClientTableOptions.Builder<?>>) b -> b.maxClients(0),
            "maxClients must be >= 1, got 0"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badValues")
  void setter_badValue_isRefusedByBothReadersWithTheSameMessage(
      Consumer<ClientTableOptions.Builder<?>> set, String message) {
    for (ClientTableOptions.Builder<?> b : List.<ClientTableOptions.Builder<?>>of(
        CsvClients.builder(FILE), ParquetClients.builder(FILE))) {
      assertThatThrownBy(() -> set.accept(b)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(message);
    }
  }

  @Test
  void options_setOnEitherReader_areTheSameRecord() {
    Path spill = Path.of("spill");
    ClientTableOptions csv = CsvClients.builder(FILE).clientColumn("user").labelColumn("y")
        .featureColumns(List.of("a", "b")).numClasses(3).maxInferredClasses(9).testFraction(0.5)
        .seed(7).maxClients(40).spillDirectory(spill).delimiter(';').options();
    ClientTableOptions parquet = ParquetClients.builder(FILE).clientColumn("user")
        .labelColumn("y").featureColumns(List.of("a", "b")).numClasses(3).maxInferredClasses(9)
        .testFraction(0.5).seed(7).maxClients(40).spillDirectory(spill).options();

    assertThat(csv).isEqualTo(parquet).isEqualTo(new ClientTableOptions("user", "y",
        List.of("a", "b"), 3, 9, 0.5, 7, 40, Optional.of(spill)));
    assertThat(csv.labelLimit()).isEqualTo(3);
  }

  @Test
  void options_defaults_areTheReadersDocumentedOnes() {
    ClientTableOptions o = ParquetClients.builder(FILE).options();

    assertThat(o).isEqualTo(new ClientTableOptions("client", "label", List.of(), 0, 1 << 16,
        0.2, 0, 100_000, Optional.empty()));
    assertThat(o.labelLimit()).isEqualTo(1 << 16);
    assertThat(CsvClients.builder(FILE).options()).isEqualTo(o);
  }

  @Test
  void constructor_outOfRange_isRefusedAsTheSetterIs() {
    assertThatThrownBy(() -> new ClientTableOptions("client", "label", List.of(), 0, 1, 0.0, 0,
        1, Optional.empty())).hasMessage("testFraction must be in (0, 1), got 0.0");
  }
}
