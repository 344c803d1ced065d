package io.tributary.flower.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.TensorTypes;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.server.Behaviours;
import io.tributary.flower.server.FakeClient;
import io.tributary.flower.testing.Messages;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Inbound flow control: fit answers are read only as the {@link InboundBudget} admits them, a
 * waiting round is never stalled by it, and a queued client's timeout does not run.
 */
class InboundFlowControlTest {
  /** 100,000 float32: a fit instruction of about 400 KB, over OutboundBudget.SMALL. */
  private static final ServerMessage FIT = Messages.fit(List.of(Tensor.ofFloats(
      Shape.of(100_000), new float[100_000])), Map.of());
  /** Room for exactly one fit answer. */
  private static final int ONE_ANSWER = FIT.getSerializedSize() + 1000;

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final ClientManager manager = new ClientManager();
  private final InboundBudget inbound = new InboundBudget(ONE_ANSWER);
  private final List<FakeClient> clients = new ArrayList<>();
  private Server server;
  private ManagedChannel channel;

  /** Starts an in-process server whose streams share {@link #inbound}. */
  private void startServer() throws Exception {
    String name = InProcessServerBuilder.generateName();
    JoinService join = new JoinService(manager, timer, new Traffic(), Integer.MAX_VALUE,
        new OutboundBudget(OutboundBudget.DEFAULT_BYTES), inbound);
    server = InProcessServerBuilder.forName(name).addService(ServerInterceptors.intercept(
        FlowerRpc.service(join), new TensorTypeInterceptor(List.of(TensorTypes.DEFAULT)))).build()
        .start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  /** Starts the server and {@code n} honest clients. */
  private List<ClientProxy> start(int n) throws Exception {
    startServer();
    for (int i = 0; i < n; i++) {
      clients.add(new FakeClient(channel, new Metadata(), Behaviours.honest(1, 10)));
    }
    return manager.waitFor(n, Duration.ofSeconds(10)).stream().map(c -> (ClientProxy) c)
        .toList();
  }

  @AfterEach
  void stop() throws Exception {
    for (RemoteClient p : manager.all()) {
      p.finish();
    }
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    timer.shutdownNow();
  }

  @Test
  void request_budgetForOneAnswer_readsTheNextOnlyWhenTheFirstIsTaken() throws Exception {
    List<ClientProxy> p = start(3);
    List<CompletableFuture<ClientMessage>> answers = new ArrayList<>();
    for (ClientProxy c : p) {
      answers.add(c.request(FIT, Optional.empty()));
    }

    assertThat(answers.get(0).get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    Thread.sleep(200);
    assertThat(answers.get(1)).isNotDone();
    assertThat(answers.get(2)).isNotDone();
    assertThat(inbound.waiting()).isEqualTo(2);

    p.get(0).releaseAnswer();
    assertThat(answers.get(1).get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    assertThat(answers.get(2)).isNotDone();
    p.get(1).releaseAnswer();
    assertThat(answers.get(2).get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    p.get(2).releaseAnswer();
    assertThat(inbound.available()).isEqualTo(ONE_ANSWER);
    assertThat(inbound.waiting()).isZero();
  }

  @Test
  void expedite_queuedClient_readsItsAnswerOutsideTheBudget() throws Exception {
    List<ClientProxy> p = start(3);
    List<CompletableFuture<ClientMessage>> answers = new ArrayList<>();
    for (ClientProxy c : p) {
      answers.add(c.request(FIT, Optional.empty()));
    }
    answers.get(0).get(5, TimeUnit.SECONDS);

    p.get(2).expedite();

    assertThat(answers.get(2).get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    assertThat(answers.get(1)).isNotDone();
    p.get(2).releaseAnswer();
    assertThat(inbound.available()).isEqualTo(ONE_ANSWER - FIT.getSerializedSize());
    p.get(0).releaseAnswer();
    assertThat(answers.get(1).get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
  }

  @Test
  void expedite_beforeTheBudgetSeesTheInstruction_letsItThroughWhenItArrives() throws Exception {
    List<ClientProxy> p = start(2);
    p.get(0).request(FIT, Optional.empty()).get(5, TimeUnit.SECONDS);
    // The budget is spent; client 2's instruction is sent but (as if the sender were slow) not
    // yet admitted when the round already asks for its answer.
    CompletableFuture<ClientMessage> second = p.get(1).request(FIT, Optional.empty());
    assertThat(inbound.waiting()).isEqualTo(1);
    inbound.forget(p.get(1));
    assertThat(p.get(1).awaitingAdmission()).isTrue();

    p.get(1).expedite();
    assertThat(second).isNotDone();
    inbound.admit(p.get(1), FIT.getSerializedSize());

    assertThat(second.get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    assertThat(inbound.waiting()).isZero();
  }

  @Test
  void request_queuedClient_timeoutRunsOnlyOnceItsAnswerMayBeRead() throws Exception {
    List<ClientProxy> p = start(2);
    CompletableFuture<ClientMessage> first = p.get(0).request(FIT, Optional.empty());
    first.get(5, TimeUnit.SECONDS);
    // Long enough that a slow machine still reads the answer in time once it is admitted.
    CompletableFuture<ClientMessage> second = p.get(1).request(FIT,
        Optional.of(Duration.ofMillis(1000)));

    Thread.sleep(1500);
    assertThat(second).isNotDone();

    p.get(0).releaseAnswer();
    assertThat(second.get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
  }

  @Test
  void request_admittedClientThatNeverAnswers_timesOutAndGivesBackItsShare() throws Exception {
    startServer();
    // One at a time, so which proxy is which does not depend on the order the streams open in.
    clients.add(new FakeClient(channel, new Metadata(), Behaviours.silent()));
    ClientProxy silent = (ClientProxy) manager.waitFor(1, Duration.ofSeconds(10)).get(0);
    clients.add(new FakeClient(channel, new Metadata(), Behaviours.honest(1, 10)));
    ClientProxy honest = (ClientProxy) manager.waitFor(2, Duration.ofSeconds(10)).stream()
        .filter(c -> c != silent).findFirst().orElseThrow();

    CompletableFuture<ClientMessage> lost = silent.request(FIT,
        Optional.of(Duration.ofMillis(300)));
    CompletableFuture<ClientMessage> next = honest.request(FIT, Optional.empty());

    assertThatThrownBy(() -> lost.get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).hasMessageContaining("no answer");
    assertThat(next.get(5, TimeUnit.SECONDS).hasFitRes()).isTrue();
    honest.releaseAnswer();
    assertThat(inbound.available()).isEqualTo(ONE_ANSWER);
  }

  @Test
  void new_budgetBelowSmall_isRefused() {
    assertThatThrownBy(() -> new InboundBudget(1000))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1000");
  }
}
