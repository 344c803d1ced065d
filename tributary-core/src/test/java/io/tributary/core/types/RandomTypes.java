package io.tributary.core.types;

import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/** Generates random valid types: every kind, respecting the nesting rules. */
public final class RandomTypes {
  private final Random random;

  public RandomTypes(Random random) {
    this.random = random;
  }

  /** Any valid type, up to {@code depth} levels deep. */
  public Type any(int depth) {
    return gen(depth, false, false, true);
  }

  /** A type without federated, placement, function or abstract parts. */
  public Type local(int depth) {
    return gen(depth, false, true, false);
  }

  public TensorType tensor() {
    DType dtype = DType.values()[random.nextInt(DType.values().length)];
    int shapeKind = random.nextInt(6);
    if (shapeKind == 0) {
      return TensorType.unknownRank(dtype);
    }
    int rank = random.nextInt(4);
    long[] dims = new long[rank];
    for (int i = 0; i < rank; i++) {
      dims[i] = random.nextInt(4) == 0 ? TensorType.UNKNOWN_DIM : random.nextInt(20);
    }
    return TensorType.of(dtype, dims);
  }

  private Type gen(int depth, boolean inSequence, boolean inFederated, boolean abstractOk) {
    boolean free = !inSequence && !inFederated;
    int choice = depth <= 0 ? random.nextInt(2) : random.nextInt(8);
    return switch (choice) {
      case 0 -> tensor();
      case 1 -> abstractOk && random.nextInt(3) == 0 ? new AbstractType(label()) : tensor();
      case 2 -> struct(depth, inSequence, inFederated, abstractOk);
      case 3 -> inSequence ? tensor() : new SequenceType(gen(depth - 1, true, inFederated,
          abstractOk));
      case 4 -> free && abstractOk ? function(depth) : tensor();
      case 5 -> free && abstractOk ? new PlacementType() : struct(depth, inSequence, inFederated,
          abstractOk);
      default -> free && abstractOk ? federated(depth) : struct(depth, inSequence, inFederated,
          abstractOk);
    };
  }

  private Type struct(int depth, boolean inSequence, boolean inFederated, boolean abstractOk) {
    int n = random.nextInt(4);
    List<StructType.Element> elements = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < n; i++) {
      Optional<String> name = Optional.empty();
      if (random.nextBoolean()) {
        String candidate = "n" + random.nextInt(50);
        if (names.add(candidate)) {
          name = Optional.of(candidate);
        }
      }
      elements.add(new StructType.Element(name, gen(depth - 1, inSequence, inFederated,
          abstractOk)));
    }
    return new StructType(elements);
  }

  private Type function(int depth) {
    Optional<Type> param =
        random.nextInt(4) == 0 ? Optional.empty() : Optional.of(gen(depth - 1, false, false,
            true));
    return new FunctionType(param, gen(depth - 1, false, false, true));
  }

  private Type federated(int depth) {
    Type member = gen(depth - 1, false, true, true);
    if (random.nextBoolean()) {
      return FederatedType.atServer(member);
    }
    return new FederatedType(member, random.nextBoolean() ? Placement.CLIENTS : Placement.EDGES,
        random.nextBoolean());
  }

  private String label() {
    String[] labels = {"T", "U", "V", "Ks", "R", "T2"};
    return labels[random.nextInt(labels.length)];
  }
}
