package io.tributary.flower.secagg;

import io.tributary.learning.FederatedAlgorithm;

import static org.assertj.core.api.Assertions.assertThat;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessServerBuilder;
import io.tributary.flower.Backoff;
import io.tributary.flower.EvaluateIns;
import io.tributary.flower.EvaluateRes;
import io.tributary.flower.FitIns;
import io.tributary.flower.FitRes;
import io.tributary.flower.FlowerClient;
import io.tributary.flower.FlowerClientException;
import io.tributary.flower.Scalar;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.server.FlowerServer;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.RunResult;
import io.tributary.flower.server.SecureAggregation;
import io.tributary.flower.server.ServerConfig;
import io.tributary.learning.rounds.RoundRecord;
import io.tributary.privacy.aggregation.DpAggregator;
import io.tributary.privacy.aggregation.DpMode;
import io.tributary.privacy.aggregation.DpNoise;
import io.tributary.privacy.secagg.SecAggMessage;
import io.tributary.privacy.secagg.SecAggWire;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;


/**
 * SecAgg+ rounds between the Java server and SDK clients wrapped in {@link SecAggClientAdapter},
 * over in-process gRPC. Updates are odd multiples of 1/32 and the quantization step is 1/16
 * (8 bits, clipping range 255/32), so each update is on the quantization grid, stochastic
 * rounding is exact, and every aggregate can be checked exactly.
 */
class SecureAggregationRoundsTest {
  private static final Backoff QUICK = new Backoff(Duration.ofMillis(20), Duration.ofMillis(50),
      2, 0, 2, 0);
  private static final int BITS = 8;
  private static final double CLIP = 255.0 / 32;
  private static final double STEP = 1.0 / 16;

  private final String name = InProcessServerBuilder.generateName();
  private final InProcessClients clientRunners =
      new InProcessClients(runner -> runner.backoff(QUICK));
  /** Every message the server received from a client. */
  private final List<ClientMessage> received = new CopyOnWriteArrayList<>();
  private FlowerServer server;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (server != null) {
      server.close();
    }
    clientRunners.close();
  }

  @Test
  void run_fiveClients_serverSeesOnlyMaskedVectorsAndTheSumIsExact() throws Exception {
    start(new SecureAggregation(4, 3, BITS, CLIP, 8), 5);
    double[] shifts = {5 / 32.0, 9 / 32.0, -7 / 32.0, 15 / 32.0, 33 / 32.0};
    long[] examples = {1, 2, 3, 4, 5};
    for (int i = 0; i < 5; i++) {
      join(new SecAggClientAdapter(new Shifting(shifts[i], examples[i])));
    }
    awaitClients(5);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failures()).isZero();
    assertThat(r.clients()).isEqualTo(5);
    assertThat(r.examples()).isEqualTo(15);
    // No client's loss reaches the server in a secure round.
    assertThat(r.clientLoss()).isNaN();
    float mean = expectedMean(shifts, examples);
    assertThat(result.finalParameters().get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), mean, mean));
    assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(1 + mean));
    // Everything the server received: no parameters, no example counts, no plain metrics, and
    // masked inputs that are not the clients' inputs.
    List<ClientMessage> fits = received.stream().filter(ClientMessage::hasFitRes).toList();
    assertThat(fits).hasSize(20).allSatisfy(m -> {
      assertThat(m.getFitRes().getParameters().getTensorsCount()).isZero();
      assertThat(m.getFitRes().getNumExamples()).isZero();
      assertThat(m.getFitRes().getMetricsMap().keySet())
          .allSatisfy(k -> assertThat(k).startsWith("secagg_"));
    });
    List<long[]> plainInputs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      plainInputs.add(input(shifts[i], examples[i]));
    }
    List<SecAggMessage.MaskedInput> masked = fits.stream().map(this::message)
        .filter(SecAggMessage.MaskedInput.class::isInstance)
        .map(SecAggMessage.MaskedInput.class::cast).toList();
    assertThat(masked).hasSize(5).allSatisfy(mi -> {
      assertThat(mi.masked()).hasSize(4);
      for (long[] x : plainInputs) {
        assertThat(mi.masked()).isNotEqualTo(x);
      }
    });
  }

  @Test
  void run_clientDropsAfterShareKeys_roundRecoversAndAveragesTheSurvivors() throws Exception {
    start(new SecureAggregation(4, 3, BITS, CLIP, 8), 5);
    double[] shifts = {5 / 32.0, 9 / 32.0, -7 / 32.0, 15 / 32.0};
    long[] examples = {1, 2, 3, 4};
    for (int i = 0; i < 4; i++) {
      join(new SecAggClientAdapter(new Shifting(shifts[i], examples[i])));
    }
    ManagedChannel dying = join(new SecAggClientAdapter(new DiesOnTraining()));
    DiesOnTraining.channel = dying;
    awaitClients(5);
    List<String> progress = java.util.Collections.synchronizedList(new ArrayList<>());
    io.tributary.learning.rounds.RoundListener told =
        new io.tributary.learning.rounds.RoundListener() {
          @Override
          public void roundEnded(RoundRecord metrics,
              java.util.SequencedMap<String, Tensor> parameters) {}

          @Override
          public void stage(int round, String stage, int clients) {
            progress.add(stage + " over " + clients);
          }

          @Override
          public void clientFailed(int round, String client, String reason) {
            progress.add("failed " + reason);
          }

          @Override
          public void stageEnded(int round, String stage, int reported,
              List<String> failures) {
            progress.add(stage + " ended: " + reported + " reported, " + failures.size()
                + " dropped");
          }
        };

    RunResult result = server.run(told);

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).singleElement().asString()
        .contains("excluded at masked_input");
    // The round's progress tells each SecAgg+ stage and the drop-out as it happens.
    assertThat(progress).contains("fit (SecAgg+) over 1", "SecAgg+ masked_input over 5",
        "SecAgg+ masked_input ended: 4 reported, 1 dropped",
        "fit (SecAgg+) ended: 1 reported, 0 dropped")
        .anyMatch(l -> l.startsWith("failed dropped out at masked_input: "));
    float mean = expectedMean(shifts, examples);
    assertThat(result.finalParameters().get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), mean, mean));
    assertThat(r.examples()).isEqualTo(10);
  }

  @Test
  void run_tooFewSurvivors_roundRefusedWithAClearReasonAndTheModelKept() throws Exception {
    start(new SecureAggregation(4, 3, BITS, CLIP, 8), 5);
    for (int i = 0; i < 3; i++) {
      join(new SecAggClientAdapter(new Shifting(5 / 32.0, 1)));
    }
    join(new SecAggClientAdapter(new Failing()));
    join(new SecAggClientAdapter(new Failing()));
    awaitClients(5);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).anySatisfy(x -> assertThat(x)
        .contains("TOO_FEW_SURVIVORS").contains("no sum revealed"));
    assertThat(r.examples()).isZero();
    assertThat(result.finalParameters().get("w")).isEqualTo(Tensor.ofFloats(Shape.of(2), 0, 0));
    assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(1f));
    // No unmask request went out: nobody was asked for shares.
    assertThat(received.stream().filter(ClientMessage::hasFitRes)
        .filter(m -> m.getFitRes().getMetricsMap().containsKey(SecAggFlower.MESSAGE))
        .map(this::message)
        .filter(SecAggMessage.UnmaskShares.class::isInstance)).isEmpty();
  }

  /** What a hostile client does to its answer. */
  enum Attack {
    SMALL_ORDER_KEY("advertise_keys", "advertise_keys", "fails verification"),
    REPLAYED_MESSAGE("share_keys", "share_keys", "AdvertiseKeys"),
    SHARE_FOR_UNKNOWN_PEER("share_keys", "share_keys", "addresses shares"),
    TAMPERED_SHARE("share_keys", "masked_input", "accused of sending tampered shares"),
    WRONG_MASK_LENGTH("masked_input", "masked_input", "elements, expected"),
    GARBAGE_UNMASK("unmask", "unmask", "malformed"),
    ACCUSES_A_STRANGER("masked_input", "masked_input", "accused client 99, which sent it no");

    /** Where the client corrupts its answer. */
    final String corruptAt;
    /** Where the server excludes it. */
    final String stage;
    final String reason;

    Attack(String corruptAt, String stage, String reason) {
      this.corruptAt = corruptAt;
      this.stage = stage;
      this.reason = reason;
    }
  }

  @ParameterizedTest
  @EnumSource(Attack.class)
  void run_hostileClient_isExcludedAndTheRoundIsExactOverTheOthers(Attack attack)
      throws Exception {
    start(new SecureAggregation(5, 3, BITS, CLIP, 8), 6);
    double[] shifts = {5 / 32.0, 9 / 32.0, -7 / 32.0, 15 / 32.0, 33 / 32.0};
    long[] examples = {1, 2, 3, 4, 5};
    List<Watched> honest = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      honest.add(new Watched(new SecAggClientAdapter(new Shifting(shifts[i], examples[i]))));
      join(honest.get(i));
    }
    join(new Hostile(new SecAggClientAdapter(new Shifting(-101 / 32.0, 7)), attack));
    awaitClients(6);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).anySatisfy(x -> assertThat(x)
        .contains("excluded at " + attack.stage).contains(attack.reason));
    // A hostile client's update counts only when its masked input was taken before it turned
    // hostile (garbage unmask shares: its self mask is removed with the others' shares); a
    // tampered share also costs its accuser's update.
    double sum = 0;
    long total = 0;
    if (attack == Attack.GARBAGE_UNMASK) {
      sum += quantized(-101 / 32.0) * 7;
      total += 7;
    }
    for (int i = 0; i < 5; i++) {
      if (!honest.get(i).accused) {
        sum += quantized(shifts[i]) * examples[i];
        total += examples[i];
      }
    }
    assertThat(r.examples()).isEqualTo(total);
    float mean = (float) (sum * STEP / total - CLIP);
    assertThat(result.finalParameters().get("w"))
        .isEqualTo(Tensor.ofFloats(Shape.of(2), mean, mean));
  }

  /** How a participant that runs the protocol honestly moves its masked vector. */
  enum Steer {
    /** Adds 2^17 to every masked element (the modulus is 2^19): the model would move by ~10^3. */
    ELEMENTS("range check", "above"),
    /** Adds 2^16 to its masked example count: the sum would claim 65,558 examples. */
    EXAMPLES("examples check", "outside 1 to 1530");

    final String check;
    final String detail;

    Steer(String check, String detail) {
      this.check = check;
      this.detail = detail;
    }
  }

  @ParameterizedTest
  @EnumSource(Steer.class)
  void run_participantMovesItsMaskedVector_roundRefusedNamingTheCheckAndTheModelKept(
      Steer steer) throws Exception {
    start(new SecureAggregation(5, 3, BITS, CLIP, 8), 6);
    double[] shifts = {5 / 32.0, 9 / 32.0, -7 / 32.0, 15 / 32.0, 33 / 32.0};
    long[] examples = {1, 2, 3, 4, 5};
    for (int i = 0; i < 5; i++) {
      join(new SecAggClientAdapter(new Shifting(shifts[i], examples[i])));
    }
    // 6 clients of 8 + 8 bits: the sum is modulo 2^19.
    long modulus = 1L << 19;
    join(new Steering(new SecAggClientAdapter(new Shifting(1 / 32.0, 7)), y -> {
      int from = steer == Steer.ELEMENTS ? 0 : y.length - 1;
      int to = steer == Steer.ELEMENTS ? y.length - 1 : y.length;
      for (int j = from; j < to; j++) {
        y[j] = (y[j] + (steer == Steer.ELEMENTS ? 1L << 17 : 1L << 16)) % modulus;
      }
    }));
    awaitClients(6);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).anySatisfy(x -> assertThat(x)
        .contains("secure aggregation refused the sum (" + steer.check + ")")
        .contains(steer.detail).contains("the model is kept"));
    assertThat(result.finalParameters().get("w")).isEqualTo(Tensor.ofFloats(Shape.of(2), 0, 0));
    assertThat(result.finalParameters().get("b")).isEqualTo(Tensor.scalar(1f));
  }

  @Test
  void run_clientDpParticipantSkipsClipping_roundRefusedByTheClipCheck() throws Exception {
    double c = 1.0;
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, c, 4, java.util.Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
    start(new SecureAggregation(3, 2, 16, c, 8), 4,
        io.tributary.learning.FederatedAlgorithm.fedAvg().withAggregator(dp),
        Map.of("clipping_norm", Scalar.of(c)));
    for (int i = 0; i < 3; i++) {
      join(new SecAggClientAdapter(new Shifting(0.1, 1)));
    }
    // Each of its 3 elements 100,000 steps (of 2/65,535) higher: the mean is within [-C, C]
    // per element (0.86), but of L2 norm about 1.5, which no clipped updates average to.
    long modulus = 1L << (16 + 8 + 2);
    join(new Steering(new SecAggClientAdapter(new Shifting(0.1, 1)), y -> {
      for (int j = 0; j < y.length - 1; j++) {
        y[j] = (y[j] + 100_000) % modulus;
      }
    }));
    awaitClients(4);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failureReasons()).anySatisfy(x -> assertThat(x)
        .contains("secure aggregation refused the sum (clip check)")
        .contains("above the clipping norm 1.0"));
    assertThat(result.finalParameters().get("w")).isEqualTo(Tensor.ofFloats(Shape.of(2), 0, 0));
  }

  private SecAggMessage message(ClientMessage m) {
    try {
      Map<String, Scalar> metrics = ScalarCodec.fromProto(m.getFitRes().getMetricsMap());
      return SecAggWire.decode(SecAggFlower.bytesOf(metrics, SecAggFlower.MESSAGE));
    } catch (io.tributary.flower.internal.MalformedMessageException e) {
      throw new AssertionError(e);
    }
  }

  private static long quantized(double x) {
    return Math.round((x + CLIP) / STEP);
  }

  /** A client's input: its weighted quantized update of 3 parameters and its examples. */
  private static long[] input(double shift, long examples) {
    long q = quantized(shift) * examples;
    return new long[] {q, q, q, examples};
  }

  private static float expectedMean(double[] shifts, long[] examples) {
    double sum = 0;
    long total = 0;
    for (int i = 0; i < shifts.length; i++) {
      sum += quantized(shifts[i]) * examples[i];
      total += examples[i];
    }
    return (float) (sum * STEP / total - CLIP);
  }

  @Test
  void run_clientDpOverSecAgg_clientsClipServerAddsNoiseToTheSumOnly() throws Exception {
    double c = 1.0;
    // No noise, so the model can be checked: the sum of the clipped updates over the expected
    // four clients, up to 16-bit quantization of each element in [-C, C].
    DpAggregator dp = new DpAggregator(DpMode.CLIENT, 0, c, 4, java.util.Optional.empty(), 0,
        DpNoise.seededForExperimentsOnlyNotPrivate(1));
    start(new SecureAggregation(3, 2, 16, c, 8), 4,
        io.tributary.learning.FederatedAlgorithm.fedAvg().withAggregator(dp),
        Map.of("clipping_norm", Scalar.of(c)));
    // Shifts of every parameter (3 of them): the third and fourth are beyond C and get clipped
    // on the client to norm C, whatever their example counts, which no longer weigh.
    double[] shifts = {0.1, -0.2, 3.0, -40.0};
    long[] examples = {1, 7, 100, 3};
    for (int i = 0; i < 4; i++) {
      join(new SecAggClientAdapter(new Shifting(shifts[i], examples[i])));
    }
    awaitClients(4);

    RunResult result = server.run();

    RoundRecord r = result.rounds().get(0);
    assertThat(r.failures()).isZero();
    double sum = 0;
    for (double s : shifts) {
      double norm = Math.abs(s) * Math.sqrt(3);
      sum += norm > c ? s * c / norm : s;
    }
    double expected = sum / 4;
    double step = 2 * c / ((1 << 16) - 1);
    assertThat((double) result.finalParameters().get("w").toFloatArray()[0])
        .isCloseTo(expected, org.assertj.core.api.Assertions.within(4 * step / 4 + 1e-6));
    assertThat((double) result.finalParameters().get("b").toFloatArray()[0])
        .isCloseTo(1 + expected, org.assertj.core.api.Assertions.within(4 * step / 4 + 1e-6));
    // The server received masked vectors only: no parameters, no example counts.
    assertThat(received.stream().filter(ClientMessage::hasFitRes).toList()).hasSize(16)
        .allSatisfy(m -> assertThat(m.getFitRes().getParameters().getTensorsCount()).isZero());
  }

  private void start(SecureAggregation secure, int minClients) throws Exception {
    start(secure, minClients, null);
  }

  private void start(SecureAggregation secure, int minClients, FederatedAlgorithm algorithm)
      throws Exception {
    start(secure, minClients, algorithm, Map.of());
  }

  private void start(SecureAggregation secure, int minClients, FederatedAlgorithm algorithm,
      Map<String, Scalar> fitConfig) throws Exception {
    LinkedHashMap<String, Tensor> init = new LinkedHashMap<>();
    init.put("w", Tensor.ofFloats(Shape.of(2), 0, 0));
    init.put("b", Tensor.scalar(1f));
    ServerConfig.Builder config = ServerConfig.builder().address("localhost", 0).rounds(1)
        .minClients(minClients).initial(new InitialParameters.Given(init))
        .secureAggregation(secure).clientWait(Duration.ofSeconds(20))
        .roundTimeout(Duration.ofSeconds(20)).shutdownGrace(Duration.ofSeconds(2));
    if (algorithm != null) {
      config.algorithm(algorithm).fitConfig(fitConfig);
    }
    server = FlowerServer.start(config.build(),
        InProcessServerBuilder.forName(name).intercept(InProcessClients.recording(received)),
        SerializerRegistry.load());
  }

  private ManagedChannel join(FlowerClient client) throws Exception {
    return clientRunners.join(name, client);
  }

  private void awaitClients(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.connectedClients().size() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + n + " clients, have "
            + server.connectedClients());
      }
      Thread.sleep(5);
    }
  }

  /** Adds {@code shift} to every parameter, from {@code examples} examples. */
  static class Shifting implements FlowerClient {
    final double shift;
    final long examples;

    Shifting(double shift, long examples) {
      this.shift = shift;
      this.examples = examples;
    }

    @Override
    public FitRes fit(FitIns ins) {
      List<Tensor> out = new ArrayList<>();
      for (Tensor t : ins.parameters()) {
        float[] v = new float[(int) t.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) (t.getAsDouble(i) + shift);
        }
        out.add(Tensor.ofFloats(t.shape(), v));
      }
      return new FitRes(out, examples, Map.of("loss", Scalar.of(0.5)));
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 1, Map.of());
    }
  }

  /** An honest adapter, noting whether it accused a neighbour instead of masking. */
  static final class Watched implements FlowerClient {
    private final FlowerClient inner;
    volatile boolean accused;

    Watched(FlowerClient inner) {
      this.inner = inner;
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
      return inner.evaluate(ins);
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      FitRes r = inner.fit(ins);
      if (r.metrics().containsKey(SecAggFlower.ACCUSED)) {
        accused = true;
      }
      return r;
    }
  }

  /** Drops its connection when asked to train, after sharing its keys. */
  static final class DiesOnTraining implements FlowerClient {
    static volatile ManagedChannel channel;

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 1, Map.of());
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      channel.shutdownNow();
      throw new FlowerClientException("gone");
    }
  }

  /** Fails to train, after sharing its keys. */
  static final class Failing implements FlowerClient {
    @Override
    public EvaluateRes evaluate(EvaluateIns ins) {
      return new EvaluateRes(0.5f, 1, Map.of());
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      throw new FlowerClientException("out of memory");
    }
  }

  /** Runs the protocol honestly but changes its masked vector as {@code change} says. */
  static final class Steering implements FlowerClient {
    private final FlowerClient inner;
    private final java.util.function.Consumer<long[]> change;

    Steering(FlowerClient inner, java.util.function.Consumer<long[]> change) {
      this.inner = inner;
      this.change = change;
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
      return inner.evaluate(ins);
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      FitRes honest = inner.fit(ins);
      if (!(honest.metrics().get(SecAggFlower.MESSAGE) instanceof Scalar.Bytes b)
          || !(SecAggWire.decode(b.value()) instanceof SecAggMessage.MaskedInput m)) {
        return honest;
      }
      long[] y = m.masked().clone();
      change.accept(y);
      return new FitRes(List.of(), 0, Map.of(SecAggFlower.STAGE,
          honest.metrics().get(SecAggFlower.STAGE), SecAggFlower.MESSAGE,
          new Scalar.Bytes(SecAggWire.encode(new SecAggMessage.MaskedInput(m.client(), y)))));
    }
  }

  /** Runs the protocol honestly but corrupts its answer as {@code attack} says. */
  static final class Hostile implements FlowerClient {
    private final FlowerClient inner;
    private final Attack attack;
    private FitRes advertised;

    Hostile(FlowerClient inner, Attack attack) {
      this.inner = inner;
      this.attack = attack;
    }

    @Override
    public EvaluateRes evaluate(EvaluateIns ins) throws FlowerClientException {
      return inner.evaluate(ins);
    }

    @Override
    public FitRes fit(FitIns ins) throws FlowerClientException {
      FitRes honest = inner.fit(ins);
      Scalar stage = honest.metrics().get(SecAggFlower.STAGE);
      if (!(stage instanceof Scalar.Str s) || !s.value().equals(attack.corruptAt)) {
        if (stage instanceof Scalar.Str s && s.value().equals("advertise_keys")) {
          advertised = honest;
        }
        return honest;
      }
      if (attack == Attack.ACCUSES_A_STRANGER) {
        return new FitRes(List.of(), 0, Map.of(SecAggFlower.STAGE, stage,
            SecAggFlower.ACCUSED, Scalar.of(99L), SecAggFlower.ERROR, Scalar.of("lies")));
      }
      SecAggMessage m = SecAggWire.decode(
          SecAggFlower.bytesOf(honest.metrics(), SecAggFlower.MESSAGE));
      byte[] bytes = switch (attack) {
        case SMALL_ORDER_KEY -> {
          var a = (SecAggMessage.AdvertiseKeys) m;
          yield SecAggWire.encode(new SecAggMessage.AdvertiseKeys(a.client(), new byte[32],
              a.maskingKey()));
        }
        case REPLAYED_MESSAGE -> SecAggFlower.bytesOf(advertised.metrics(),
            SecAggFlower.MESSAGE);
        case SHARE_FOR_UNKNOWN_PEER -> {
          var sk = (SecAggMessage.ShareKeys) m;
          int[] to = sk.recipients().clone();
          to[to.length - 1] = 99;
          yield SecAggWire.encode(new SecAggMessage.ShareKeys(sk.client(), to,
              sk.ciphertexts(), sk.selfMaskCommitment()));
        }
        case TAMPERED_SHARE -> {
          var sk = (SecAggMessage.ShareKeys) m;
          byte[][] c = sk.ciphertexts().clone();
          c[0] = c[0].clone();
          c[0][c[0].length - 1] ^= 1;
          yield SecAggWire.encode(new SecAggMessage.ShareKeys(sk.client(), sk.recipients(), c,
              sk.selfMaskCommitment()));
        }
        case WRONG_MASK_LENGTH -> {
          var mi = (SecAggMessage.MaskedInput) m;
          yield SecAggWire.encode(new SecAggMessage.MaskedInput(mi.client(),
              Arrays.copyOf(mi.masked(), mi.masked().length - 1)));
        }
        case GARBAGE_UNMASK -> new byte[] {'S', 2, 7, 0, 0};
        case ACCUSES_A_STRANGER -> throw new IllegalStateException("answered above");
      };
      return new FitRes(List.of(), 0, Map.of(SecAggFlower.STAGE, stage,
          SecAggFlower.MESSAGE, new Scalar.Bytes(bytes)));
    }
  }
}
