package io.tributary.tensor.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.testplugin.Float64TextSerializer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SerializerRegistryTest {

  @Test
  void load_classPath_findsBuiltInsAndThirdPartyPlugin() {
    SerializerRegistry registry = SerializerRegistry.load();

    assertThat(registry.available())
        .containsExactlyInAnyOrder("numpy.ndarray", "proto.ndarray", "text.float64");
  }

  @Test
  void forType_pluginType_roundTripsThroughThePlugin() throws Exception {
    SerializerRegistry registry = SerializerRegistry.load();
    List<Tensor> tensors = List.of(Tensor.ofDoubles(Shape.of(2, 2), 1, 2.5, -0.0, 1e300), Tensor.scalar(7.0));

    Parameters p = registry.forType("text.float64").serialize(tensors);

    assertThat(registry.forType(p.tensorType())).isInstanceOf(Float64TextSerializer.class);
    assertThat(registry.deserialize(ParametersCodec.decode(ParametersCodec.encode(p)))).isEqualTo(tensors);
  }

  @Test
  void forType_builtInTypes_giveBuiltIns() throws Exception {
    SerializerRegistry registry = SerializerRegistry.load();

    assertThat(registry.forType("numpy.ndarray")).isInstanceOf(NumpyNdarraySerializer.class);
    assertThat(registry.forType("proto.ndarray")).isInstanceOf(ProtoNdarraySerializer.class);
  }

  @Test
  void forType_unknownType_namesTypeAndAvailableOnes() {
    SerializerRegistry registry = SerializerRegistry.of(new NumpyNdarraySerializer(), new ProtoNdarraySerializer());

    assertThatThrownBy(() -> registry.forType("proto.tftensor"))
        .isInstanceOf(UnsupportedTensorTypeException.class)
        .hasMessage("unsupported tensor_type 'proto.tftensor'; available: numpy.ndarray, proto.ndarray")
        .satisfies(e -> {
          UnsupportedTensorTypeException u = (UnsupportedTensorTypeException) e;
          assertThat(u.tensorType()).isEqualTo("proto.tftensor");
          assertThat(u.available()).containsExactly("numpy.ndarray", "proto.ndarray");
        });
  }

  @Test
  void deserialize_unknownTypeInParameters_rejected() {
    SerializerRegistry registry = SerializerRegistry.of(new ProtoNdarraySerializer());

    assertThatThrownBy(() -> registry.deserialize(Parameters.ofTensors("", List.of())))
        .isInstanceOf(UnsupportedTensorTypeException.class)
        .hasMessage("unsupported tensor_type ''; available: proto.ndarray");
  }

  @Test
  void of_emptyRegistry_saysNoneAvailable() {
    assertThatThrownBy(() -> SerializerRegistry.of().forType("numpy.ndarray"))
        .hasMessage("unsupported tensor_type 'numpy.ndarray'; available: none");
  }

  @Test
  void of_twoSerializersForOneType_rejected() {
    assertThatThrownBy(() -> SerializerRegistry.of(new ProtoNdarraySerializer(), new ProtoNdarraySerializer()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two serializers for tensor_type 'proto.ndarray'");
  }

  @Test
  void of_customCanHandle_isConsulted() throws Exception {
    Serializer aliasing = new Serializer() {
      private final ProtoNdarraySerializer inner = new ProtoNdarraySerializer();

      @Override
      public String tensorType() {
        return inner.tensorType();
      }

      @Override
      public boolean canHandle(String type) {
        return type.equals("proto.ndarray") || type.equals("proto.ndarray.v0");
      }

      @Override
      public Parameters serialize(List<Tensor> tensors) throws SerializationException {
        return inner.serialize(tensors);
      }

      @Override
      public List<Tensor> deserialize(Parameters parameters) throws SerializationException {
        return inner.deserialize(Parameters.ofValues("proto.ndarray", parameters.values()));
      }
    };

    assertThat(SerializerRegistry.of(aliasing).forType("proto.ndarray.v0")).isSameAs(aliasing);
  }

  @Test
  void load_givenClassLoader_findsServicesOnlyItLists(@TempDir Path dir) throws Exception {
    Path services = dir.resolve("META-INF/services");
    Files.createDirectories(services);
    Files.writeString(services.resolve(Serializer.class.getName()),
        "# a plugin jar's service file\nio.tributary.tensor.serialization.testplugin.HiddenSerializer\n");

    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      assertThat(SerializerRegistry.load(loader).available()).contains("test.hidden", "proto.ndarray");
      assertThat(SerializerRegistry.load().available()).doesNotContain("test.hidden");

      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      thread.setContextClassLoader(loader);
      try {
        assertThat(SerializerRegistry.load().available()).contains("test.hidden");
      } finally {
        thread.setContextClassLoader(previous);
      }
    }
  }

  @Test
  void load_eachCall_makesANewRegistry() {
    assertThat(SerializerRegistry.load()).isNotSameAs(SerializerRegistry.load());
  }
}
