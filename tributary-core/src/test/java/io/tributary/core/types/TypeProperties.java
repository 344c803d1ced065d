package io.tributary.core.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class TypeProperties {
  @Property(tries = 2000)
  void parse_printedRandomType_givesSameType(@ForAll long seed) {
    Type t = new RandomTypes(new Random(seed)).any(4);
    String printed = Types.print(t);
    assertThat(Types.parse(printed)).as(printed).isEqualTo(t);
  }

  @Property(tries = 500)
  void isAssignable_randomType_isReflexive(@ForAll long seed) {
    Type t = new RandomTypes(new Random(seed)).any(4);
    assertThat(Types.isAssignable(t, t)).as(t.compact()).isTrue();
    assertThat(Types.isEquivalent(t, t)).isTrue();
  }
}
