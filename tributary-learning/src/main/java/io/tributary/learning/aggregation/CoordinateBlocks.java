package io.tributary.learning.aggregation;

import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The block loops the rules share: a round's updates are read a block of {@link #BLOCK} elements
 * of every client at a time, so each client's block is read once and the working set stays in
 * cache. Arithmetic is in double; results take each layer's dtype.
 */
final class CoordinateBlocks {
  private CoordinateBlocks() {}

  /**
   * Elements per block: a block of every client's values (n x BLOCK doubles, 800 KB at n = 100)
   * stays in cache while it is combined.
   */
  static final int BLOCK = 1024;

  /**
   * {@code sum_c w[c] u_c / total}, element by element in client order, one block of elements
   * at a time: each client's block is read once, and the accumulator is one block.
   */
  static List<Tensor> weighted(ClientUpdates u, double[] w, double total) {
    List<Tensor> out = new ArrayList<>();
    double[] acc = new double[BLOCK];
    double[] v = new double[BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
        Arrays.fill(acc, 0, len, 0);
        for (int c = 0; c < u.size(); c++) {
          u.read(c, l, from, v, 0, len);
          double wc = w[c];
          for (int j = 0; j < len; j++) {
            acc[j] += v[j] * wc;
          }
        }
        for (int j = 0; j < len; j++) {
          b.setFromDouble(from + j, acc[j] / total);
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /** Values of one coordinate across clients: the rule of {@link #coordinatewise}. */
  interface Coordinate {
    /** The result from the values {@code v[at..at + n)}, in client order; may reorder them. */
    double apply(double[] v, int at, int n);
  }

  /**
   * Applies {@code f} to each coordinate's values across clients, one block of
   * coordinates at a time: each client's block is read once into a coordinate-major block.
   */
  static List<Tensor> coordinatewise(ClientUpdates u, Coordinate f) {
    List<Tensor> out = new ArrayList<>();
    int n = u.size();
    double[] t = new double[n * BLOCK];
    double[] row = new double[BLOCK];
    for (int l = 0; l < u.layers(); l++) {
      TensorBuilder b = u.builder(l);
      long size = u.layerSize(l);
      for (long from = 0; from < size; from += BLOCK) {
        int len = (int) Math.min(BLOCK, size - from);
        transpose(u, l, from, len, row, t);
        for (int j = 0; j < len; j++) {
          b.setFromDouble(from + j, f.apply(t, j * n, n));
        }
      }
      out.add(b.build());
    }
    return out;
  }

  /**
   * Elements {@code [from, from + len)} of layer {@code l} of every client into {@code t},
   * coordinate-major: {@code t[j * n + c]} is client c's element {@code from + j}.
   */
  static void transpose(ClientUpdates u, int l, long from, int len, double[] row,
      double[] t) {
    int n = u.size();
    for (int c = 0; c < n; c++) {
      u.read(c, l, from, row, 0, len);
      for (int j = 0; j < len; j++) {
        t[j * n + c] = row[j];
      }
    }
  }
}
