package io.tributary.learning.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.runtime.ClientValues;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CohortTest {
  @Test
  void generated_millionClients_makesNoValueUntilAsked() {
    AtomicInteger made = new AtomicInteger();
    Cohort c = Cohort.generated("fit", 1_000_000, i -> {
      made.incrementAndGet();
      return "data of " + i;
    }, i -> "client " + i);

    assertThat(c.size()).isEqualTo(1_000_000);
    assertThat(c.isGenerated()).isTrue();
    assertThat(made).hasValue(0);
    assertThat(c.clients().get(999_999)).isEqualTo("data of 999999");
    assertThat(c.names().get(3)).isEqualTo("client 3");
    assertThat(made).hasValue(1);
  }

  @Test
  void equalsAndHashCode_generated_makeNoValue() {
    AtomicInteger made = new AtomicInteger();
    Cohort a = Cohort.generated("fit", 1_000_000, i -> made.incrementAndGet(), i -> "c");
    Cohort b = Cohort.generated("fit", 1_000_000, i -> made.incrementAndGet(), i -> "c");

    assertThat(a).isEqualTo(a).isNotEqualTo(b);
    assertThat(a.hashCode()).isEqualTo(a.hashCode());
    assertThat(a.toString()).contains("1000000 values made on demand");
    assertThat(made).hasValue(0);
  }

  @Test
  void argument_generated_isClientValuesMadeOnDemand() {
    Cohort c = Cohort.generated("fit", 5, i -> i * 10, i -> "client " + i);
    ClientValues values = (ClientValues) c.argument();
    assertThat(values.inMemory()).isFalse();
    assertThat(values.size()).isEqualTo(5);
    assertThat(values.get(4)).isEqualTo(40);
  }

  @Test
  void argument_generatedWithCosts_carriesTheCostsWithoutMakingValues() {
    AtomicInteger made = new AtomicInteger();
    Cohort c = Cohort.generated("fit", 3, i -> made.incrementAndGet(), i -> "client " + i,
        i -> 100L * (3 - i));
    ClientValues values = (ClientValues) c.argument();
    assertThat(values.hasCosts()).isTrue();
    assertThat(values.cost(0)).isEqualTo(300);
    assertThat(values.cost(2)).isEqualTo(100);
    assertThat(made).hasValue(0);
    assertThat(((ClientValues) Cohort.generated("fit", 3, i -> i, i -> "c").argument())
        .hasCosts()).isFalse();
  }

  @Test
  void argument_held_isTheList() {
    Cohort c = new Cohort("test", List.of("a", "b"), List.of("client 0", "client 1"));
    assertThat(c.isGenerated()).isFalse();
    assertThat(c.argument()).isEqualTo(List.of("a", "b"));
  }

  @Test
  void constructor_namesAndClientsDisagree_refused() {
    assertThatThrownBy(() -> new Cohort("fit", List.of("a"), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 clients but 0");
    assertThatThrownBy(() -> Cohort.generated("fit", -1, i -> i, i -> ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
  }
}
