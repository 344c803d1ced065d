package io.tributary.format;

import io.tributary.tensor.Tensor;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * What one tag of a model file holds, for {@link ModelWriter}: parameters (each an array, or a
 * share of another tag's), updater state, the training configuration and an optional graph.
 * Build it with {@link #builder()}.
 */
public final class TagContents {
  /** A parameter's or updater state's source: its own arrays, or another tag's. */
  sealed interface Source permits Own, Shared {}

  /** Arrays written into this tag. */
  record Own(List<Tensor> tensors) implements Source {}

  /** Arrays of {@code fromTag}'s {@code fromName}, shared rather than copied. */
  record Shared(String fromTag, String fromName) implements Source {}

  private final SequencedMap<String, Source> params;
  private final SequencedMap<String, Source> updater;
  private final TrainingConfig config;
  private final ByteBuffer graph;

  private TagContents(Builder b) {
    this.params = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(b.params));
    this.updater = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(b.updater));
    this.config = b.config;
    this.graph = b.graph;
  }

  /** A builder for a tag's contents. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A tag holding just {@code parameters}, with no training configuration. The parameters keep
   * the map's order when it is a {@link SequencedMap} (a {@code LinkedHashMap}, say), and are
   * sorted by name for any other map (such as {@code Map.of(...)}).
   */
  public static TagContents of(Map<String, Tensor> parameters) {
    Builder b = builder();
    for (Map.Entry<String, Tensor> e : Ordered.of(parameters).entrySet()) {
      b.parameter(e.getKey(), e.getValue());
    }
    return b.build();
  }

  SequencedMap<String, Source> params() {
    return params;
  }

  SequencedMap<String, Source> updater() {
    return updater;
  }

  TrainingConfig config() {
    return config;
  }

  Optional<ByteBuffer> graph() {
    return Optional.ofNullable(graph).map(ByteBuffer::duplicate);
  }

  /** Collects a tag's contents; names may be any non-empty strings. */
  public static final class Builder {
    private final SequencedMap<String, Source> params = new LinkedHashMap<>();
    private final SequencedMap<String, Source> updater = new LinkedHashMap<>();
    private TrainingConfig config = TrainingConfig.none();
    private ByteBuffer graph;

    private Builder() {}

    private static String checkName(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("empty parameter name");
      }
      return name;
    }

    private void addParam(String name, Source s) {
      if (params.putIfAbsent(checkName(name), s) != null) {
        throw new IllegalArgumentException("parameter '" + name + "' added twice");
      }
    }

    /** Adds parameter {@code name} with its value. */
    public Builder parameter(String name, Tensor value) {
      addParam(name, new Own(List.of(Objects.requireNonNull(value, "value"))));
      return this;
    }

    /** Adds parameter {@code name} as a share of the same-named parameter of {@code fromTag}. */
    public Builder sharedParameter(String name, String fromTag) {
      return sharedParameter(name, fromTag, name);
    }

    /**
     * Adds parameter {@code name} as a share of {@code fromTag}'s {@code fromName}: the file
     * stores the array once and both tags refer to it ({@code shared_param fromTag/7}).
     */
    public Builder sharedParameter(String name, String fromTag, String fromName) {
      Tags.check(fromTag);
      addParam(name, new Shared(fromTag, checkName(fromName)));
      return this;
    }

    private void addState(String name, Source s) {
      if (updater.putIfAbsent(checkName(name), s) != null) {
        throw new IllegalArgumentException("updater state for '" + name + "' added twice");
      }
    }

    /** Adds the updater state arrays of parameter {@code name}, such as Adam's m and v. */
    public Builder updaterState(String name, List<Tensor> states) {
      if (states.isEmpty()) {
        throw new IllegalArgumentException("no updater state arrays for '" + name + "'");
      }
      addState(name, new Own(List.copyOf(states)));
      return this;
    }

    /** Adds the updater state of {@code name} as a share of {@code fromTag}'s state for the same name. */
    public Builder sharedUpdaterState(String name, String fromTag) {
      Tags.check(fromTag);
      addState(name, new Shared(fromTag, name));
      return this;
    }

    /** Sets the training configuration (default {@link TrainingConfig#none()}). */
    public Builder trainingConfig(TrainingConfig c) {
      this.config = Objects.requireNonNull(c, "config");
      return this;
    }

    /**
     * Sets the serialized graph, stored as {@code graph.fb}; it must be a FlatBuffer (root
     * offset and root table inside the bytes). The bytes are copied.
     *
     * @throws IllegalArgumentException when they are not
     */
    public Builder graph(ByteBuffer serialized) {
      ByteBuffer copy = ByteBuffer.allocate(serialized.remaining()).put(serialized.duplicate()).flip();
      try {
        ModelTag.GraphBytes.verify("graph.fb", copy.duplicate());
      } catch (FlatBufferVerificationException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      this.graph = copy.asReadOnlyBuffer();
      return this;
    }

    /**
     * The contents.
     *
     * @throws IllegalArgumentException when updater state names a parameter the tag does not have
     */
    public TagContents build() {
      for (String name : updater.keySet()) {
        if (!params.containsKey(name)) {
          throw new IllegalArgumentException("updater state for '" + name + "', which is not a parameter");
        }
      }
      int states = config.updaterStateNames().size();
      for (Map.Entry<String, Source> e : updater.entrySet()) {
        if (states > 0 && e.getValue() instanceof Own own && own.tensors().size() != states) {
          throw new IllegalArgumentException("'" + e.getKey() + "' has " + own.tensors().size()
              + " updater state arrays, the training configuration names " + states);
        }
      }
      return new TagContents(this);
    }
  }
}
