package io.tributary.cli;

import io.tributary.flower.Backoff;
import io.tributary.flower.app.DualLayoutClientApp;
import io.tributary.flower.app.MetricKey;
import io.tributary.flower.app.TrainingClientApp;
import io.tributary.flower.app.mod.SecAggPlusMod;
import io.tributary.flower.fleet.FleetTransport;
import io.tributary.flower.fleet.NodeConfig;
import io.tributary.flower.fleet.NodeKeys;
import io.tributary.flower.fleet.SuperNode;
import io.tributary.flower.passes.NodePasses;
import io.tributary.flower.training.TrainingClient;
import io.tributary.graph.local.GraphBindingException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code supernode} command: a Flower SuperNode ({@link SuperNode}) that joins a Flower
 * SuperLink over the Fleet API (HTTP by default, as flower-supernode 1.40+; gRPC-rere for
 * SuperLinks up to 1.42) and answers every run's train and evaluate messages with a
 * {@link TrainingClientApp} training one partition of a dataset, or, for messages of Flower's
 * DefaultWorkflow (SecAgg+ among them), the same trainer in that layout wearing
 * {@link SecAggPlusMod} ({@link DualLayoutClientApp}). Unless {@code --no-client-passes}, the
 * app also runs a Tributary server's secure passes ({@link NodePasses#installed}, the protocol
 * and the algorithms composed in code from the class path). Flag names are
 * {@code flower-supernode}'s where they mean the same.
 */
@Command(
    name = "supernode",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Join a Flower SuperLink's Fleet API as a SuperNode running a Java ClientApp: over HTTP "
          + "(the default, as flower-supernode 1.40+; --http-path-prefix /api/v0/fleet for "
          + "Flower 1.27-1.39's --fleet-api-type rest) or --transport grpc-rere (Flower up to "
          + "1.42).",
      "Every run the SuperLink gives this node is answered by the Java app (the FAB's Python "
          + "code is not run): train messages train partition I of N from the ArrayRecord "
          + "'arrays' with the ConfigRecord 'config' (lr, local_epochs, batch_size, "
          + "proximal_mu), replying 'arrays' and 'metrics' (num-examples, train_loss); "
          + "evaluate messages reply 'metrics' (num-examples, eval_loss, accuracy), as Flower's "
          + "FedAvg and friends expect. Messages of Flower's DefaultWorkflow (NumPyClient "
          + "records, e.g. fitins.parameters; SecAggPlusWorkflow's stages) are answered in that "
          + "layout, through a secaggplus_mod counterpart, told apart per message.",
      "A Tributary Fleet server's secure passes (a computation that sums securely, such as "
          + "DP-FedAvg with secure sums) run here too: the node rebuilds the server's "
          + "computation, checks its fingerprint, and enters its client's part into SecAgg+ "
          + "(--no-client-passes turns this off).",
      "Reconnects with backoff when the SuperLink goes away; on SIGTERM or Ctrl-C deactivates "
          + "and unregisters, then exits with 0. Exits with 1 when the SuperLink stayed "
          + "unreachable, 2 for a bad option or unreadable file.",
      ""
    })
final class SupernodeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--superlink", paramLabel = "HOST:PORT", required = true,
      description = "the SuperLink's Fleet API address, HOST:PORT or [IPV6]:PORT (flower-superlink "
          + "1.27's default port is 9092 for grpc-rere, 9095 for rest)")
  String superlink;

  @Option(names = "--transport", paramLabel = "http|grpc-rere",
      description = "how to reach the Fleet API: http (default, Flower 1.40+; with "
          + "--http-path-prefix /api/v0/fleet Flower 1.27-1.39's REST transport) or grpc-rere "
          + "(Flower up to 1.42)")
  String transport = "http";

  @Option(names = "--http-path-prefix", paramLabel = "PATH",
      description = "the HTTP Fleet API's path prefix (default /v1/fleet; /api/v0/fleet for "
          + "flower-superlink 1.27-1.39 --fleet-api-type rest)")
  String httpPathPrefix;

  @Option(names = "--insecure", description = "plain text (http:// or plain gRPC), without TLS")
  boolean insecure;

  @Option(names = "--root-certificates", paramLabel = "FILE",
      description = "TLS trusting the PEM root certificates in FILE (default without "
          + "--insecure: the system's)")
  Path rootCertificates;

  @Option(names = "--auth-supernode-private-key", paramLabel = "FILE",
      description = "node authentication with the EC private key in FILE, registered with the "
          + "SuperLink beforehand (flwr supernode register): OpenSSH, as 'ssh-keygen -t ecdsa "
          + "-b 384 -N \"\"' writes it and flower-supernode reads it, or PKCS#8 PEM (which needs "
          + "--auth-supernode-public-key); without it the node makes and registers its own key "
          + "pair")
  Path authPrivateKey;

  @Option(names = "--auth-supernode-public-key", paramLabel = "FILE",
      description = "the node's EC public key, OpenSSH (FILE.pub) or PEM; optional with an "
          + "OpenSSH private key, which holds it (deprecated in flower-supernode 1.27 for that "
          + "reason); checked to be the private key's")
  Path authPublicKey;

  @Option(names = "--node-config", paramLabel = "\"k=v ...\"",
      description = "the node config the app sees, key=value pairs with TOML values")
  String nodeConfig = "";

  @Option(names = "--max-retries", paramLabel = "K",
      description = "consecutive failed attempts to reach the SuperLink after which the node "
          + "gives up, at least 1 (default: unlimited)")
  Integer maxRetries;

  @Option(names = "--max-message-bytes", paramLabel = "BYTES",
      description = "the largest message accepted, its pulled objects together (default: a "
          + "fifth of the maximum heap, at most 2 GiB); larger ones get a Flower Error reply")
  Long maxMessageBytes;

  @Option(names = "--max-inflated-bytes", paramLabel = "BYTES",
      description = "the most array bytes a message may stand for once inflated, counted once "
          + "per name referring to them (default: a quarter of the maximum heap)")
  Long maxInflatedBytes;

  @Option(names = "--max-elements", paramLabel = "N",
      description = "the most record entries and array chunk references a message may stand for "
          + "once inflated (default: one per 256 bytes of maximum heap)")
  Long maxElements;

  @Option(names = "--app", paramLabel = "CLASS",
      description = "serve every run with the user's ClientApp that CLASS (an "
          + "io.tributary.flower.app.ClientAppProvider with a public no-argument constructor) "
          + "makes, instead of the built-in trainer")
  String app;

  @Option(names = "--classpath", paramLabel = "JARS",
      description = "jars and folders (separated by '" + "${sys:path.separator}" + "') to load "
          + "--app from; without --app, the one ClientAppProvider they register in "
          + "META-INF/services")
  String classpath;

  @Option(names = "--train-metric", paramLabel = "KEY[=SOURCE]",
      description = "with the built-in trainer, a key of the train reply's metrics, repeated for "
          + "each: KEY, KEY=SOURCE or KEY=[SOURCE,...] (a list); sources are num-examples, "
          + "train_loss and the trainer's metrics (loss, accuracy). Given, the reply holds exactly "
          + "these keys, so that it matches the Python nodes of a mixed round (default: "
          + "num-examples, train_loss and the trainer's metrics)")
  java.util.List<String> trainMetrics = new java.util.ArrayList<>();

  @Option(names = "--evaluate-metric", paramLabel = "KEY[=SOURCE]",
      description = "the same for the evaluate reply; sources are num-examples, loss (or "
          + "eval_loss) and the trainer's metrics (accuracy). Default: num-examples, eval_loss and "
          + "the trainer's metrics")
  java.util.List<String> evaluateMetrics = new java.util.ArrayList<>();

  @picocli.CommandLine.Mixin ClientPassesOptions clientPasses = new ClientPassesOptions();

  @picocli.CommandLine.Mixin Verbose verbose = new Verbose();

  @picocli.CommandLine.Mixin LocalTrainingOptions training = new LocalTrainingOptions();

  @picocli.CommandLine.Mixin UiOptions uiOptions = new UiOptions();

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    verbose.configureLogging();
    SuperNode node;
    String what;
    java.util.Optional<io.tributary.ui.NodeView.Builder> ui;
    io.tributary.ui.NodeView view = null;
    try {
      ui = uiOptions.nodeBuilder();
      // flags that need no file or model first, each refused in one line before anything else
      SuperNode.Builder b;
      try {
        b = SuperNode.builder(superlink);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--superlink: " + e.getMessage());
      }
      try {
        b.transport(FleetTransport.parse(transport, httpPathPrefix));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--transport/--http-path-prefix: " + e.getMessage());
      }
      if (maxRetries != null && maxRetries < 1) {
        throw new IllegalArgumentException("--max-retries must be at least 1, got "
            + maxRetries);
      }
      if (insecure && rootCertificates != null) {
        throw new IllegalArgumentException("--insecure and --root-certificates exclude each "
            + "other");
      }
      if (rootCertificates != null) {
        if (!java.nio.file.Files.isReadable(rootCertificates)) {
          throw new IOException("cannot read --root-certificates " + rootCertificates);
        }
        b.rootCertificates(rootCertificates);
      }
      bounds(b);
      java.util.Map<String, Object> config = NodeConfig.parse(nodeConfig);
      partitionFromNodeConfig(config);
      io.tributary.flower.app.ClientApp clientApp;
      java.util.List<MetricKey> trainKeys;
      java.util.List<MetricKey> evaluateKeys;
      try {
        trainKeys = MetricKey.parseAll(trainMetrics);
        evaluateKeys = MetricKey.parseAll(evaluateMetrics);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--train-metric/--evaluate-metric: " + e.getMessage());
      }
      if ((app != null || classpath != null)
          && (!trainKeys.isEmpty() || !evaluateKeys.isEmpty())) {
        throw new IllegalArgumentException("--train-metric and --evaluate-metric name the "
            + "built-in trainer's keys; a --app ClientApp chooses its own");
      }
      ClassLoader loader;
      if (app != null || classpath != null) {
        UserApps.Loaded loaded = UserApps.load(app, classpath);
        clientApp = loaded.app();
        what = loaded.description();
        loader = loaded.loader();
      } else {
        loader = UserApps.loader(null);
        LocalTrainingOptions.Prepared p = training.prepare(() -> { });
        TrainingClient client = p.client();
        // Each message is answered in its own layout: Message-API apps (FedAvg of
        // flwr.serverapp) and DefaultWorkflow apps, SecAgg+ ones included, on the same node.
        clientApp = DualLayoutClientApp.of(client, trainKeys, evaluateKeys, new SecAggPlusMod());
        what = p.description();
      }
      java.util.Optional<NodePasses> passes = clientPasses.passes(loader);
      if (passes.isPresent()) {
        clientApp = passes.get().serve(clientApp);
        what += "; " + ClientPassesOptions.describe(passes.get());
      }
      b.insecure(insecure)
          .nodeConfig(config)
          .clientApp(clientApp)
          .backoff(Backoff.DEFAULT.withMaxAttempts(maxRetries == null ? Integer.MAX_VALUE
              : maxRetries).withSeed(training.seed));
      if (authPublicKey != null && authPrivateKey == null) {
        throw new IllegalArgumentException("--auth-supernode-public-key needs "
            + "--auth-supernode-private-key");
      }
      if (authPrivateKey != null) {
        b.authKeys(authPublicKey == null ? NodeKeys.read(authPrivateKey)
            : NodeKeys.read(authPrivateKey, authPublicKey));
      }
      if (ui.isPresent()) {
        ui.get().title("Tributary SuperNode: " + what + ", joining " + superlink);
        try {
          view = UiOptions.start(ui.get(), spec.commandLine().getOut());
        } catch (IOException e) {
          throw new IOException("--ui " + uiOptions.ui + ": cannot listen there: "
              + e.getMessage(), e);
        }
        b.observer(view);
      }
      try {
        node = b.build();
      } catch (IllegalArgumentException e) {
        closeQuietly(view);
        throw new IllegalArgumentException((rootCertificates != null ? "--root-certificates: "
            : "") + e.getMessage());
      }
    } catch (IllegalArgumentException | IllegalStateException | IOException e) {
      err.println("tributary supernode: " + String.valueOf(e.getMessage()).replaceAll("\\R", " "));
      err.flush();
      verbose.trace(err, e);
      return ExitCodes.BAD_INPUT;
    } catch (LocalTrainingOptions.DataException e) {
      return Problems.report(err, "supernode", e.where, e.problem);
    } catch (GraphBindingException e) {
      err.println("tributary supernode: cannot prepare the model: " + e.getMessage());
      return 1;
    }
    err.println("tributary supernode: " + what + "; joining " + superlink + " over "
        + describe(transport, httpPathPrefix));
    err.flush();
    Thread hook = new Thread(() -> {
      try {
        node.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "tributary-supernode-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try (io.tributary.ui.NodeView unused = view) {
      node.run();
      if (node.failure() != null) {
        err.println("tributary supernode: " + node.failure().getMessage());
        verbose.trace(err, node.failure());
        return 1;
      }
      spec.commandLine().getOut().println("stopped");
      return 0;
    } catch (IOException e) {
      // Closing the page failed after the node stopped; the node's work is done.
      return 0;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down and runs the hook.
      }
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (IOException e) {
      // Nothing was served yet that a viewer could miss.
    }
  }

  private void bounds(SuperNode.Builder b) {
    if (maxMessageBytes != null) {
      if (maxMessageBytes < 1) {
        throw new IllegalArgumentException("--max-message-bytes must be positive, got "
            + maxMessageBytes);
      }
      b.maxMessageBytes(maxMessageBytes);
    }
    if (maxInflatedBytes != null) {
      if (maxInflatedBytes < 0) {
        throw new IllegalArgumentException("--max-inflated-bytes must not be negative, got "
            + maxInflatedBytes);
      }
      b.maxInflatedBytes(maxInflatedBytes);
    }
    if (maxElements != null) {
      if (maxElements < 0) {
        throw new IllegalArgumentException("--max-elements must not be negative, got "
            + maxElements);
      }
      b.maxElements(maxElements);
    }
  }

  /**
   * Flower's examples name a node's partition in its node config ({@code partition-id},
   * {@code num-partitions}); the built-in trainer takes it from there unless {@code --partition}
   * was given, and refuses the two when they disagree.
   */
  private void partitionFromNodeConfig(java.util.Map<String, Object> config) {
    Object id = config.get("partition-id");
    Object n = config.get("num-partitions");
    if (id == null && n == null) {
      return;
    }
    if (!(id instanceof Long i) || !(n instanceof Long count)) {
      throw new IllegalArgumentException("--node-config: partition-id and num-partitions must "
          + "both be given, as integers (got " + clip(String.valueOf(id)) + " and "
          + clip(String.valueOf(n)) + ")");
    }
    if (count < 1 || i < 0 || i >= count) {
      throw new IllegalArgumentException("--node-config: partition-id " + i
          + " is not in [0, num-partitions " + count + ")");
    }
    String fromConfig = i + "/" + count;
    boolean explicit = spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption("--partition");
    if (explicit && !training.partition.equals(fromConfig)) {
      throw new IllegalArgumentException("--partition " + training.partition
          + " disagrees with --node-config partition-id=" + i + " num-partitions=" + count);
    }
    training.partition = fromConfig;
  }

  /** An echoed user value, cut short. */
  private static String clip(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  private static String describe(String transport, String prefix) {
    return transport.equals("grpc-rere") ? "gRPC-rere"
        : "HTTP " + (prefix == null ? FleetTransport.FLEET_V1 : prefix);
  }
}
