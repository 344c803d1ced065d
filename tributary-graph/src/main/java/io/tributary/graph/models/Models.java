package io.tributary.graph.models;

import io.tributary.graph.GraphBuilder;
import io.tributary.graph.OpArgs;
import io.tributary.tensor.DType;

/**
 * The built-in models. Each takes a batch of any size; inputs are float32 (or the dtype given),
 * labels int64 class indices, and the loss is the mean sparse softmax cross-entropy.
 */
public final class Models {
  private Models() {}

  /** FedProx's multinomial logistic regression {@code mclr}: 60 inputs, 10 classes, 610 parameters. */
  public static Model mclr() {
    return softmaxRegression("mclr", 60, 10, DType.FLOAT32);
  }

  /** Softmax regression of any size: one dense layer, inputs x classes + classes parameters. */
  public static Model softmaxRegression(String name, int inputs, int classes, DType dtype) {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", dtype, -1, inputs);
    String logits = dense(b, "dense", x, inputs, classes, dtype);
    return finish(name, b, logits, dtype);
  }

  /**
   * The FedAvg paper's 2NN: 784-200-200-10 with ReLU, 199,210 parameters. {@code mlp(784, 200, 10)}.
   */
  public static Model fedAvg2nn() {
    return mlp("2nn", 784, 200, 10, DType.FLOAT32);
  }

  /** A two-hidden-layer ReLU perceptron inputs-hidden-hidden-classes. */
  public static Model mlp(String name, int inputs, int hidden, int classes, DType dtype) {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", dtype, -1, inputs);
    String h1 = b.opNamed("hidden1/relu", "relu", OpArgs.none(),
        dense(b, "hidden1", x, inputs, hidden, dtype));
    String h2 = b.opNamed("hidden2/relu", "relu", OpArgs.none(),
        dense(b, "hidden2", h1, hidden, hidden, dtype));
    String logits = dense(b, "output", h2, hidden, classes, dtype);
    return finish(name, b, logits, dtype);
  }

  /**
   * The FedAvg paper's CNN for 28x28 grey images (NHWC input [batch, 28, 28, 1]): two 5x5
   * convolutions (32 then 64 channels, same padding, ReLU), each followed by 2x2 max pooling, a
   * 512-unit ReLU layer and a 10-way output; 1,663,370 parameters.
   */
  public static Model fedAvgCnn() {
    return fedAvgCnn(DType.FLOAT32);
  }

  public static Model fedAvgCnn(DType dtype) {
    GraphBuilder b = new GraphBuilder();
    String x = b.placeholder("x", dtype, -1, 28, 28, 1);
    String c1 = conv(b, "conv1", x, 1, 32, dtype);
    String p1 = b.opNamed("pool1", "max_pool", pool(), c1);
    String c2 = conv(b, "conv2", p1, 32, 64, dtype);
    String p2 = b.opNamed("pool2", "max_pool", pool(), c2);
    String flat = b.opNamed("flatten", "flatten", OpArgs.none(), p2);
    String fc = b.opNamed("fc1/relu", "relu", OpArgs.none(), dense(b, "fc1", flat, 7 * 7 * 64, 512,
        dtype));
    String logits = dense(b, "output", fc, 512, 10, dtype);
    return finish("cnn", b, logits, dtype);
  }

  private static OpArgs pool() {
    return OpArgs.builder().putInt("kernel_h", 2).putInt("kernel_w", 2).build();
  }

  private static String conv(GraphBuilder b, String scope, String x, int cin, int cout, DType dt) {
    String w = b.trainable(scope + "/kernel", dt, 5, 5, cin, cout);
    String bias = b.trainable(scope + "/bias", dt, cout);
    OpArgs same = OpArgs.builder().putInt("pad_h", 2).putInt("pad_w", 2).build();
    String y = b.opNamed(scope + "/conv", "conv2d", same, x, w);
    String z = b.opNamed(scope + "/add", "add", OpArgs.none(), y, bias);
    return b.opNamed(scope + "/relu", "relu", OpArgs.none(), z);
  }

  /** x @ W + b, with W [in, out] and b [out] named {@code scope/kernel} and {@code scope/bias}. */
  static String dense(GraphBuilder b, String scope, String x, int in, int out, DType dt) {
    String w = b.trainable(scope + "/kernel", dt, in, out);
    String bias = b.trainable(scope + "/bias", dt, out);
    String y = b.opNamed(scope + "/matmul", "matmul", OpArgs.none(), x, w);
    return b.opNamed(scope + "/add", "add", OpArgs.none(), y, bias);
  }

  private static Model finish(String name, GraphBuilder b, String logits, DType dtype) {
    String labels = b.placeholder("labels", DType.INT64, -1);
    String perExample = b.opNamed("loss/cross_entropy", "sparse_softmax_cross_entropy",
        OpArgs.none(), logits, labels);
    String loss = b.opNamed("loss", "reduce_mean", OpArgs.none(), perExample);
    String acc = b.opNamed("accuracy", "accuracy", OpArgs.none(), logits, labels);
    return new Model(name, b.build(), "x", labels, logits, loss, acc);
  }
}
