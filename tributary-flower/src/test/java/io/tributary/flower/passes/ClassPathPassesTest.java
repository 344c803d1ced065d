package io.tributary.flower.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.learning.FederatedAlgorithm;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node takes its secure-pass protocol and its algorithms composed in code from its class path:
 * what a jar registers in {@code META-INF/services}.
 */
class ClassPathPassesTest {
  @TempDir Path dir;

  /** A class loader over this one that adds a folder registering {@code providers}. */
  private ClassLoader registering(String service, String providers) throws Exception {
    Path services = Files.createDirectories(dir.resolve("META-INF/services"));
    Files.writeString(services.resolve(service), providers + "\n");
    return new URLClassLoader(new URL[] {dir.toUri().toURL()},
        ClassPathPassesTest.class.getClassLoader());
  }

  @Test
  void composedFrom_registeredProvider_holdsItsAlgorithm() throws Exception {
    ClassLoader loader = registering(ComposedAlgorithms.class.getName(),
        DpAlgorithmsProvider.class.getName());
    NodeComputation node = NodeComputation.builder().composedFrom(loader).build();
    ComputationSpec spec = new ComputationSpec("fedavg", false, new LinkedHashMap<>(),
        NodeComputationTest.sent(FederatedAlgorithm.fedAvg()).modelType(), 10,
        new ComputationFingerprint("sha256:" + "0".repeat(64)));

    assertThat(node.algorithm(spec)).isEqualTo(DpAlgorithmsProvider.dpFedAvg());
    assertThatThrownBy(() -> NodeComputation.builder().build().algorithm(spec))
        .isInstanceOf(ComputationSpecException.class)
        .hasMessageContaining("no algorithm composed in code named 'fedavg'");
  }

  @Test
  void composedFrom_nameAlreadyHeld_refusedNamingTheProvider() throws Exception {
    ClassLoader loader = registering(ComposedAlgorithms.class.getName(),
        DpAlgorithmsProvider.class.getName());
    NodeComputation.Builder b = NodeComputation.builder().algorithm(FederatedAlgorithm.fedAvg());

    assertThatThrownBy(() -> b.composedFrom(loader)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(DpAlgorithmsProvider.class.getName())
        .hasMessageContaining("'fedavg' is already held");
  }

  @Test
  void composedFrom_providerThatDoesNotLoad_refusedInOneLine() throws Exception {
    ClassLoader loader = registering(ComposedAlgorithms.class.getName(), "no.such.Provider");

    assertThatThrownBy(() -> NodeComputation.builder().composedFrom(loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ComposedAlgorithms provider does not load")
        .hasMessageContaining("no.such.Provider");
  }

  @Test
  void installed_noProtocolOnTheClassPath_empty() {
    assertThat(NodePasses.installed(NodeComputation.builder().build(),
        ClassPathPassesTest.class.getClassLoader())).isEmpty();
  }

  @Test
  void installed_protocolThatDoesNotLoad_refusedInOneLine() throws Exception {
    ClassLoader loader = registering(SecurePassProtocol.class.getName(), "no.such.Protocol");

    assertThatThrownBy(() -> NodePasses.installed(NodeComputation.builder().build(), loader))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SecurePassProtocol provider does not load")
        .hasMessageContaining("no.such.Protocol");
  }
}
