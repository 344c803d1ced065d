package io.tributary.runtime.executor.internal.pass;

import io.tributary.core.types.TensorType;
import io.tributary.runtime.ClientValues;
import io.tributary.runtime.ReductionTree;
import io.tributary.runtime.executor.internal.aggregation.LinearSink;
import io.tributary.runtime.executor.internal.aggregation.Sink;
import io.tributary.runtime.executor.internal.federated.ClientNode;
import io.tributary.runtime.executor.internal.local.LinearAccumulator;
import io.tributary.tensor.DType;
import io.tributary.tensor.Shape;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.TensorBuilder;
import io.tributary.tensor.TensorMath;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The fast path for a sum, mean or weighted mean of float32/float64 values that are all in
 * memory already (such as updates received from clients): instead of folding one whole client
 * into a model-sized accumulator after another, it walks the model in cache-sized tiles and
 * folds every client's slice of a tile before moving on, so each input byte is read from memory
 * once and the accumulators never leave the cache. Threads split the tiles.
 *
 * <p>Per element it performs exactly the operations of the streaming pass (per group of clients
 * a zeroed partial, {@code partial += w * x} in client order, the partials combined by the
 * pass's {@link ReductionTree}, then one division and one rounding), so both paths give the same
 * bits.
 */
public final class TiledKernel {
  /** Elements per tile: inputs, partial and total of one tile stay within a core's L2. */
  static final int TILE = 4096;

  private TiledKernel() {}

  /** Whether the kernel can compute this sink's pass: see the class comment. */
  public static boolean applies(List<Sink> sinks) {
    if (sinks.size() != 1 || !(sinks.get(0) instanceof LinearSink s) || s.secure()) {
      return false;
    }
    if (!(s.member() instanceof TensorType t)
        || (t.dtype() != DType.FLOAT32 && t.dtype() != DType.FLOAT64)) {
      return false;
    }
    for (ClientNode n : s.inputs()) {
      if (!(n instanceof ClientNode.Argument a) || !a.values.inMemory()) {
        return false;
      }
    }
    ClientValues values = ((ClientNode.Argument) s.inputs().get(0)).values;
    if (values.size() == 0) {
      return false;
    }
    Shape shape = ((Tensor) values.get(0)).shape();
    for (int i = 0; i < values.size(); i++) {
      if (!((Tensor) values.get(i)).shape().equals(shape)) {
        return false;
      }
    }
    if (s.weighted()) {
      ClientValues w = ((ClientNode.Argument) s.inputs().get(1)).values;
      for (int i = 0; i < w.size(); i++) {
        double wi = ((Tensor) w.get(i)).getAsDouble(0);
        if (!Double.isFinite(wi) || s.weightOutOfBound(wi)) {
          return false;
        }
      }
    }
    return TensorMath.MAX_ELEMENTS >= shape.size();
  }

  /** Computes the aggregate of an applicable sink with {@code threads} threads of {@code pool}. */
  public static Object run(LinearSink sink, int threads, ExecutorService pool) {
    ClientValues values = ((ClientNode.Argument) sink.inputs().get(0)).values;
    int clients = values.size();
    double[] w = new double[clients];
    for (int i = 0; i < clients; i++) {
      w[i] = sink.weighted()
          ? ((Tensor) ((ClientNode.Argument) sink.inputs().get(1)).values.get(i)).getAsDouble(0)
          : 1.0;
    }
    int group = ClientPass.groupSize(clients);
    int groups = (clients + group - 1) / group;
    ReductionTree<double[]> weightTree = new ReductionTree<>(groups, (a, b) -> {
      a[0] += b[0];
      return a;
    });
    ReductionTree.Folder<double[]> weightFolder = weightTree.folder(0, groups);
    for (int g = 0; g < groups; g++) {
      double part = 0.0;
      for (int i = g * group; i < Math.min(clients, (g + 1) * group); i++) {
        part += w[i];
      }
      weightFolder.add(new double[] {part});
    }
    double weightTotal = weightTree.merge(weightFolder.subtrees())[0];
    double divisor = switch (sink.mode()) {
      case SUM -> 1.0;
      case MEAN -> clients;
      case WEIGHTED_MEAN -> weightTotal;
    };
    if (sink.mode() == LinearAccumulator.Mode.WEIGHTED_MEAN && weightTotal == 0.0) {
      throw new IllegalArgumentException("the weights sum to zero, so the weighted mean is "
          + "undefined");
    }
    Tensor first = (Tensor) values.get(0);
    DType dtype = first.dtype();
    Shape shape = first.shape();
    int n = (int) shape.size();
    List<List<ByteBuffer>> inputs = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      inputs.add(littleEndian(((Tensor) values.get(i)).dataBuffers()));
    }
    TensorBuilder out = TensorBuilder.allocate(dtype, shape);
    List<ByteBuffer> outBuffers = littleEndian(out.writableBuffers());
    int tiles = (n + TILE - 1) / TILE;
    int tasks = Math.max(1, Math.min(threads, tiles));
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      int from = (int) ((long) tiles * t / tasks);
      int to = (int) ((long) tiles * (t + 1) / tasks);
      Tiles job = new Tiles(dtype, n, inputs, w, group, divisor, outBuffers);
      futures.add(pool.submit(() -> job.run(from, to)));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted during an aggregation", e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException("an aggregation tile failed", e.getCause());
      }
    }
    return out.build();
  }

  private static List<ByteBuffer> littleEndian(List<ByteBuffer> buffers) {
    List<ByteBuffer> out = new ArrayList<>();
    for (ByteBuffer b : buffers) {
      out.add(b.duplicate().order(ByteOrder.LITTLE_ENDIAN));
    }
    return out;
  }

  /** One thread's share of the tiles. */
  private record Tiles(DType dtype, int n, List<List<ByteBuffer>> inputs, double[] w, int group,
      double divisor, List<ByteBuffer> out) {

    /** Computes the tiles {@code fromTile} (inclusive) to {@code toTile} (exclusive). */
    public void run(int fromTile, int toTile) {
      int clients = inputs.size();
      int groups = (clients + group - 1) / group;
      float[] xf = new float[TILE];
      double[] xd = new double[TILE];
      // Group partials of a tile, combined by the pass's tree; spent right halves are reused.
      ArrayDeque<double[]> free = new ArrayDeque<>();
      ReductionTree<double[]> tree = new ReductionTree<>(groups, (a, b) -> {
        for (int j = 0; j < a.length; j++) {
          a[j] += b[j];
        }
        free.push(b);
        return a;
      });
      for (int tile = fromTile; tile < toTile; tile++) {
        int start = tile * TILE;
        int len = Math.min(TILE, n - start);
        ReductionTree.Folder<double[]> folder = tree.folder(0, groups);
        for (int g = 0; g < groups; g++) {
          int first = g * group;
          int end = Math.min(clients, first + group);
          double[] part = free.isEmpty() || free.peek().length != len ? new double[len]
              : free.pop();
          // The partial starts as 0.0 + w * x of the group's first client, then accumulates.
          foldFirst(first, start, len, part, xf, xd);
          for (int i = first + 1; i < end; i++) {
            fold(i, start, len, part, xf, xd);
          }
          folder.add(part);
        }
        double[] total = tree.merge(folder.subtrees());
        write(start, len, total);
        free.push(total);
      }
    }

    /** {@code acc[j] += w * x[j]}. */
    private void fold(int client, int start, int len, double[] acc, float[] xf, double[] xd) {
      double wi = w[client];
      if (dtype == DType.FLOAT32) {
        read(inputs.get(client), start, len, xf);
        for (int j = 0; j < len; j++) {
          acc[j] += wi * xf[j];
        }
      } else {
        read(inputs.get(client), start, len, xd);
        for (int j = 0; j < len; j++) {
          acc[j] += wi * xd[j];
        }
      }
    }

    /** {@code part[j] = 0.0 + w * x[j]}: a fresh partial after its first client. */
    private void foldFirst(int client, int start, int len, double[] part, float[] xf,
        double[] xd) {
      double wi = w[client];
      if (dtype == DType.FLOAT32) {
        read(inputs.get(client), start, len, xf);
        for (int j = 0; j < len; j++) {
          part[j] = 0.0 + wi * xf[j];
        }
      } else {
        read(inputs.get(client), start, len, xd);
        for (int j = 0; j < len; j++) {
          part[j] = 0.0 + wi * xd[j];
        }
      }
    }

    private void read(List<ByteBuffer> buffers, int start, int len, float[] dst) {
      int done = 0;
      long at = start;
      for (ByteBuffer b : buffers) {
        int elems = b.remaining() / 4;
        if (at >= elems) {
          at -= elems;
          continue;
        }
        FloatBuffer fb = b.asFloatBuffer();
        int k = (int) Math.min(len - done, elems - at);
        fb.get((int) at, dst, done, k);
        done += k;
        at = 0;
        if (done == len) {
          return;
        }
      }
    }

    private void read(List<ByteBuffer> buffers, int start, int len, double[] dst) {
      int done = 0;
      long at = start;
      for (ByteBuffer b : buffers) {
        int elems = b.remaining() / 8;
        if (at >= elems) {
          at -= elems;
          continue;
        }
        DoubleBuffer db = b.asDoubleBuffer();
        int k = (int) Math.min(len - done, elems - at);
        db.get((int) at, dst, done, k);
        done += k;
        at = 0;
        if (done == len) {
          return;
        }
      }
    }

    private void write(int start, int len, double[] total) {
      long at = start;
      int done = 0;
      for (ByteBuffer b : out) {
        int item = dtype.itemSize();
        int elems = b.remaining() / item;
        if (at >= elems) {
          at -= elems;
          continue;
        }
        int k = (int) Math.min(len - done, elems - at);
        if (dtype == DType.FLOAT32) {
          float[] tmp = new float[k];
          for (int j = 0; j < k; j++) {
            tmp[j] = (float) (total[done + j] / divisor);
          }
          b.asFloatBuffer().put((int) at, tmp, 0, k);
        } else {
          double[] tmp = new double[k];
          for (int j = 0; j < k; j++) {
            tmp[j] = total[done + j] / divisor;
          }
          b.asDoubleBuffer().put((int) at, tmp, 0, k);
        }
        done += k;
        at = 0;
        if (done == len) {
          return;
        }
      }
    }
  }

}
