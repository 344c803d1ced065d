package io.tributary.simulation;

import io.tributary.graph.models.Model;
import io.tributary.graph.models.Models;
import io.tributary.learning.SettingException;
import io.tributary.tensor.DType;
import java.util.Arrays;
import java.util.Locale;

/** Which built-in network the clients train (the {@code --model} value). */
public enum ModelKind {
  /** Multinomial logistic regression: one dense layer from the features to the classes. */
  MCLR,
  /** A perceptron with two ReLU hidden layers. */
  MLP,
  /** The FedAvg paper's CNN for 28x28 grey images. */
  CNN;

  /** Hidden width of the MLP on small inputs; 784-pixel images get the FedAvg 2NN's 200. */
  public static final int SMALL_HIDDEN = 64;

  /** The lower-case name used on the command line. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The network for examples of {@code exampleShape} in {@code classes} classes.
   *
   * @throws IllegalArgumentException when this model cannot take such examples, saying which can
   */
  public Model build(String dataset, long[] exampleShape, int classes) {
    long features = 1;
    for (long d : exampleShape) {
      features = Math.multiplyExact(features, d);
    }
    if (features > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(dataset + ": " + features + " features per example");
    }
    int in = (int) features;
    requireHeap(dataset, parameters(in, classes), Runtime.getRuntime().maxMemory());
    return switch (this) {
      case MCLR -> in == 60 && classes == 10 ? Models.mclr()
          : Models.softmaxRegression("mclr", in, classes, DType.FLOAT32);
      case MLP -> in == 784 && classes == 10 ? Models.fedAvg2nn()
          : Models.mlp("mlp", in, SMALL_HIDDEN, classes, DType.FLOAT32);
      case CNN -> {
        if (in != 28 * 28 || classes != 10) {
          throw new SettingException("model", "{model} cnn takes 28x28 grey images in 10 "
              + "classes, but " + dataset + " has " + Arrays.toString(exampleShape) + " features "
              + "per example in " + classes + " classes: use {model} mclr or {model} mlp");
        }
        yield Models.fedAvgCnn();
      }
    };
  }

  /**
   * Float32 copies of the model a run holds at once, at the least: the global model, a client's
   * copy and its update, the round's aggregate. A model whose copies do not fit the heap is
   * refused before any is allocated.
   */
  public static final int MODEL_COPIES = 4;

  /** The parameters of this network for {@code in} features and {@code classes} classes. */
  public long parameters(long in, long classes) {
    return switch (this) {
      case MCLR -> in * classes + classes;
      case MLP -> in == 784 && classes == 10 ? 784L * 200 + 200 + 200L * 200 + 200 + 200L * 10
          + 10 : in * SMALL_HIDDEN + SMALL_HIDDEN + (long) SMALL_HIDDEN * SMALL_HIDDEN
          + SMALL_HIDDEN + SMALL_HIDDEN * classes + classes;
      case CNN -> 1_663_370L;
    };
  }

  /**
   * Refuses a model of {@code parameters} float32 values whose {@link #MODEL_COPIES} copies need
   * more than {@code heap} bytes, in one line naming both.
   *
   * @throws IllegalArgumentException when they do not fit
   */
  static void requireHeap(String dataset, long parameters, long heap) {
    double need = (double) parameters * Float.BYTES * MODEL_COPIES;
    if (need > heap || parameters > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%s: a model of %,d "
          + "parameters needs about %.1f GiB of heap for the %d copies a run holds, and this "
          + "JVM has %.1f GiB (-Xmx): use fewer features or a smaller model", dataset,
          parameters, need / (1L << 30), MODEL_COPIES, heap / (double) (1L << 30)));
    }
  }

  /**
   * Reads the short form.
   *
   * @throws IllegalArgumentException naming the value and the models there are
   */
  public static ModelKind parse(String text) {
    for (ModelKind k : values()) {
      if (k.cliName().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown model '" + text + "': use mclr, mlp or cnn");
  }
}
