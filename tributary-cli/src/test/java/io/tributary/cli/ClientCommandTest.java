package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.tributary.flower.internal.FlowerRpc;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Parameters;
import io.tributary.flower.internal.proto.ServerMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClientCommandTest {
  @TempDir Path dir;

  @Test
  void help_listsEveryOption() {
    CliRun r = CliRun.of("client", "--help");

    assertThat(r.exitCode()).isZero();
    for (String flag : List.of("--server", "--model", "--dataset", "--data-dir", "--partition",
        "--split", "--local-epochs", "--batch-size", "--lr", "--seed", "--tensor-types", "--tls-ca",
        "--tls-cert", "--tls-key", "--auth-token", "--max-message-size", "--max-attempts",
        "--secure-aggregation", "--no-client-passes", "--classpath")) {
      assertThat(r.out()).contains(flag);
    }
  }

  static Stream<Arguments> badInput() {
    return Stream.of(
        Arguments.of(new String[] {}, "--server"),
        Arguments.of(new String[] {"--server", "h:1", "--partition", "3/2"}, "--partition '3/2'"),
        Arguments.of(new String[] {"--server", "h:1", "--partition", "a/b"}, "I/N"),
        Arguments.of(new String[] {"--server", "h:1", "--dataset", "mnist"}, "unknown dataset"),
        Arguments.of(new String[] {"--server", "h:1", "--model", "cnn"}, "model cnn"),
        Arguments.of(new String[] {"--server", "h:1", "--local-epochs", "0"}, "epochs"),
        Arguments.of(new String[] {"--server", "h:1", "--batch-size", "x"}, "--batch-size"),
        Arguments.of(new String[] {"--server", "h:1", "--tls-cert", "c.pem"}, "--tls-key"),
        Arguments.of(new String[] {"--server", "h:1", "--tls-ca", "/no/such/ca.pem"},
            "/no/such/ca.pem"),
        Arguments.of(new String[] {"--server", "h:1", "--tensor-types", "proto.tftensor"},
            "proto.tftensor"),
        Arguments.of(new String[] {"--server", "h:1", "--auth-token", "a b"}, "token"),
        Arguments.of(new String[] {"--server", "h:1", "--classpath", "/no/such.jar"},
            "--classpath"),
        Arguments.of(new String[] {"--server", "h:1", "--max-attempts", "0"}, "attempts"),
        Arguments.of(new String[] {"--server", "h:1", "--split", "dirichlet:-1"}, "dirichlet"),
        Arguments.of(new String[] {"--server", "h:1", "--split", "zipf"}, "zipf"),
        Arguments.of(new String[] {"--server", "h:1", "--dataset", "synthetic:1,1", "--split",
            "shards:2"}, "--split does not apply"));
  }

  @ParameterizedTest
  @MethodSource("badInput")
  void call_badInput_exitsTwoWithOneLine(String[] args, String named) {
    String[] all = Stream.concat(Stream.of("client"), Stream.of(args)).toArray(String[]::new);

    CliRun r = CliRun.of(all);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines()[0]).startsWith("tributary client: ").contains(named);
  }

  @Test
  @Timeout(120)
  void call_againstAFlowerServer_trainsItsPartitionAndLeavesWhenTold() throws Exception {
    List<ClientMessage> answers = new CopyOnWriteArrayList<>();
    BlockingQueue<ClientMessage> replies = new LinkedBlockingQueue<>();
    Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(FlowerRpc.service(out -> {
          Thread.ofPlatform().daemon().start(() -> converse(out, replies, answers));
          return new StreamObserver<>() {
            @Override
            public void onNext(ClientMessage m) {
              replies.add(m);
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {}
          };
        })).build().start();
    try {
      CliRun r = CliRun.of("client", "--server", "localhost:" + server.getPort(),
          "--partition", "1/3", "--local-epochs", "3", "--lr", "0.05");

      assertThat(r.exitCode()).as(r.err()).isZero();
      assertThat(r.out()).contains("done: the server disconnected this client");
      assertThat(r.err()).contains("partition 1/3 of digits");
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    assertThat(answers).hasSize(5);
    ClientMessage.FitRes fit = answers.get(2).getFitRes();
    assertThat(fit.getNumExamples()).isBetween(470L, 490L);
    assertThat(fit.getMetricsMap()).containsKey("loss");
    float before = answers.get(1).getEvaluateRes().getLoss();
    float after = answers.get(3).getEvaluateRes().getLoss();
    assertThat(after).isLessThan(before * 0.7f);
    assertThat(answers.get(3).getEvaluateRes().getMetricsMap().get("accuracy").getDouble())
        .isGreaterThan(0.7);
  }

  /** GetParameters, evaluate them, fit them, evaluate the result, ReconnectIns(0). */
  private static void converse(StreamObserver<ServerMessage> out,
      BlockingQueue<ClientMessage> replies, List<ClientMessage> answers) {
    try {
      answers.add(ask(out, replies, ServerMessage.newBuilder().setGetParametersIns(
          ServerMessage.GetParametersIns.getDefaultInstance()).build()));
      Parameters initial = answers.get(0).getGetParametersRes().getParameters();
      answers.add(ask(out, replies, ServerMessage.newBuilder().setEvaluateIns(
          ServerMessage.EvaluateIns.newBuilder().setParameters(initial)).build()));
      answers.add(ask(out, replies, ServerMessage.newBuilder().setFitIns(
          ServerMessage.FitIns.newBuilder().setParameters(initial)).build()));
      Parameters trained = answers.get(2).getFitRes().getParameters();
      answers.add(ask(out, replies, ServerMessage.newBuilder().setEvaluateIns(
          ServerMessage.EvaluateIns.newBuilder().setParameters(trained)).build()));
      answers.add(ask(out, replies, ServerMessage.newBuilder().setReconnectIns(
          ServerMessage.ReconnectIns.newBuilder().setSeconds(0)).build()));
      out.onCompleted();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ClientMessage ask(StreamObserver<ServerMessage> out,
      BlockingQueue<ClientMessage> replies, ServerMessage m) throws InterruptedException {
    out.onNext(m);
    ClientMessage reply = replies.poll(60, TimeUnit.SECONDS);
    if (reply == null) {
      throw new IllegalStateException("no answer to " + m.getMsgCase());
    }
    return reply;
  }

}
