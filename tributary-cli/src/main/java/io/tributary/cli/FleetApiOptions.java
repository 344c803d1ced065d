package io.tributary.cli;

import io.tributary.flower.fleet.server.FleetApi;
import io.tributary.flower.fleet.server.FleetTransport;
import io.tributary.flower.fleet.server.FlowerApp;
import io.tributary.flower.fleet.server.FlowerAppException;
import io.tributary.flower.secaggplus.SecAggPlusSettings;
import io.tributary.flower.server.TlsFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The Fleet API options that {@code tributary server} and {@code tributary relay} share: where
 * SuperNodes join, over which transport, the App they run, its run config and node keys.
 */
final class FleetApiOptions {
  @Option(names = "--fleet-api-address", paramLabel = "HOST:PORT",
      description = "serve Flower's Fleet API here, for flower-supernode and Java SuperNodes "
          + "(a server: beside or instead of --address; a relay: beside --address); needs --app")
  String fleetApiAddress;

  @Option(names = "--fleet-api-type", paramLabel = "http|grpc-rere", defaultValue = "grpc-rere",
      description = "the Fleet API's transport: grpc-rere (default; flower-supernode) or http "
          + "(flower-supernode --rest)")
  String fleetApiType;

  @Option(names = "--app", paramLabel = "PATH",
      description = "the Flower App the SuperNodes run: a directory with pyproject.toml "
          + "([tool.flwr.app]) or a .fab file")
  Path app;

  @Option(names = "--run-config", paramLabel = "KEY=VALUE",
      description = "a run config entry the SuperNodes get on top of the App's own, as TOML "
          + "values (repeatable)")
  List<String> runConfig = new java.util.ArrayList<>();

  @Option(names = "--enable-supernode-auth",
      description = "only SuperNodes whose keys are in --supernode-keys may join (grpc-rere)")
  boolean supernodeAuth;

  @Option(names = "--supernode-keys", paramLabel = "FILE",
      description = "the OpenSSH ECDSA public keys (one per line) of the SuperNodes allowed "
          + "with --enable-supernode-auth")
  Path supernodeKeys;

  /**
   * The Fleet API settings, when --fleet-api-address is given.
   *
   * @param serveJoin whether the legacy Join endpoint is served beside it (a server's setting)
   * @param tls the certificate the Fleet API serves with, the command's own
   * @throws IllegalArgumentException naming the option that is wrong or missing
   * @throws ServerCommand.FileProblem when the node keys cannot be read
   */
  Optional<FleetApi> api(boolean serveJoin, Optional<TlsFiles> tls,
      Optional<SecAggPlusSettings> secAgg) throws ServerCommand.FileProblem {
    if (fleetApiAddress == null) {
      for (String[] o : new String[][] {{"--app", app == null ? null : "x"},
          {"--run-config", runConfig.isEmpty() ? null : "x"},
          {"--enable-supernode-auth", supernodeAuth ? "x" : null},
          {"--supernode-keys", supernodeKeys == null ? null : "x"}}) {
        if (o[1] != null) {
          throw new IllegalArgumentException(o[0] + " needs --fleet-api-address");
        }
      }
      return Optional.empty();
    }
    if (app == null) {
      throw new IllegalArgumentException("--fleet-api-address needs --app, the Flower App the "
          + "SuperNodes run");
    }
    if (supernodeAuth != (supernodeKeys != null)) {
      throw new IllegalArgumentException(supernodeAuth
          ? "--enable-supernode-auth needs --supernode-keys FILE"
          : "--supernode-keys needs --enable-supernode-auth");
    }
    ServerSettings.Address a = ServerSettings.address("--fleet-api-address", fleetApiAddress);
    FleetTransport transport = FleetTransport.parse(fleetApiType);
    FlowerApp flowerApp;
    try {
      flowerApp = FlowerApp.load(app);
    } catch (FlowerAppException e) {
      throw new IllegalArgumentException("--app: " + e.getMessage(), e);
    }
    FleetApi.Builder b = FleetApi.builder(flowerApp).address(a.host(), a.port())
        .transport(transport).serveJoin(serveJoin);
    secAgg.ifPresent(b::secAggPlus);
    for (Map.Entry<String, String> e : KeyValues.split("--run-config", "KEY=VALUE",
        runConfig)) {
      b.runConfig(e.getKey(), e.getValue());
    }
    if (supernodeKeys != null) {
      try {
        b.authorizedKeys(FleetApi.readAuthorizedKeys(supernodeKeys));
      } catch (IOException e) {
        throw new ServerCommand.FileProblem(supernodeKeys, e);
      }
    }
    tls.ifPresent(b::tls);
    return Optional.of(b.build());
  }
}
