package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.core.testing.Golden;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parse errors against golden/types/parse-errors.txt: message, text and caret. */
class TypeParseErrorsTest {
  private static final List<String> BAD_INPUTS =
      List.of(
          "",
          "int33",
          "<a=int32,>",
          "<a=int32,a=float32>",
          "float32[10,x]",
          "float32[10",
          "{int32}",
          "{int32}@MARS",
          "{int32}@EDGE",
          "{int32@EDGES}@CLIENTS",
          "(int32 int32)",
          "(int32 -> int32",
          "int32**",
          "{int32@SERVER}@CLIENTS",
          "(int32 -> int32)@SERVER",
          "int32 float32",
          "float32[99999999999999999999]",
          "<placement>*",
          "float32[...",
          "<".repeat(300));

  @Test
  void parse_badInputs_matchGoldenWithCaret() {
    StringBuilder out = new StringBuilder();
    for (String input : BAD_INPUTS) {
      TypeParseException e =
          catchThrowableOfType(TypeParseException.class, () -> Types.parse(input));
      assertThat(e).as(input).isNotNull();
      String shown = input.length() > 40 ? input.substring(0, 40) + "..." : input;
      out.append("== ").append(shown).append('\n');
      if (input.length() <= 40) {
        out.append(e.getMessage()).append("\n\n");
        String[] lines = e.getMessage().split("\n");
        assertThat(lines[2].indexOf('^') - 2).isEqualTo(e.column());
      } else {
        out.append(e.reason()).append(" at column ").append(e.column() + 1).append("\n\n");
      }
    }
    Golden.assertMatches("types/parse-errors.txt", out.toString());
  }
}
