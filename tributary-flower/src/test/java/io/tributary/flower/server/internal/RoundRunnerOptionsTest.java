package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.flower.server.ServerConfig;
import io.tributary.runtime.RuntimeOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the server's defaults become in the runtime that runs its rounds. */
class RoundRunnerOptionsTest {
  @Test
  void options_defaultConfig_timesClientsOutAndBoundsTheirWeights() {
    RuntimeOptions o = RoundRunner.options(ServerConfig.builder().build(), 1, 256);
    // The runtime's limit is the backstop one second behind the 10-minute instruction timeout,
    // so a silent client fails under the defaults and the round goes on with the others.
    assertThat(o.clientTimeout()).contains(Duration.ofMinutes(10).plusSeconds(1));
    assertThat(o.toleratesFailures()).isTrue();
    assertThat(o.maxWeight()).isEqualTo(1e9);
    assertThat(o.overWeight()).isEqualTo(RuntimeOptions.WeightPolicy.CLIP);
    assertThat(o.threads()).isEqualTo(256);
  }

  @Test
  void options_fewerWorkers_runsThatMany() {
    assertThat(RoundRunner.options(ServerConfig.builder().build(), 1, 7).threads()).isEqualTo(7);
  }

  @Test
  void options_secureProtocolOfFourExchanges_allowsClientsFourTimeouts() {
    RuntimeOptions o = RoundRunner.options(ServerConfig.builder()
        .roundTimeout(Duration.ofSeconds(30)).build(), 4, 256);
    assertThat(o.clientTimeout()).contains(Duration.ofSeconds(121));
  }

  @Test
  void options_noRoundTimeout_leavesClientsUntimed() {
    RuntimeOptions o = RoundRunner.options(ServerConfig.builder().roundTimeout(Duration.ZERO)
        .maxExamplesPerClient(7, RuntimeOptions.WeightPolicy.EXCLUDE).build(), 1, 256);
    assertThat(o.clientTimeout()).isEmpty();
    assertThat(o.maxWeight()).isEqualTo(7);
    assertThat(o.overWeight()).isEqualTo(RuntimeOptions.WeightPolicy.EXCLUDE);
  }
}
