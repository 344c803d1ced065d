package io.tributary.graph;

import com.google.flatbuffers.FlatBufferBuilder;
import io.tributary.graph.internal.fb.FbDType;
import io.tributary.graph.internal.fb.FbGraph;
import io.tributary.graph.internal.fb.FbOp;
import io.tributary.graph.internal.fb.FbVariable;
import io.tributary.graph.internal.fb.FbVariableKind;
import io.tributary.tensor.DType;
import io.tributary.tensor.Tensor;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes and reads the FlatBuffers form of a graph ({@code graph.fb}, schema {@code
 * src/main/fbs/graph.fbs}, file identifier {@code TRGF}).
 *
 * <p>Writing is deterministic: the same graph always gives the same bytes, and reading then writing
 * gives the bytes back. Reading checks the identifier, the format version, every count against the
 * bytes actually present, and constant sizes, before allocating; it does not validate the graph's
 * semantics (call {@link Graph#validate()}).
 */
public final class GraphFb {
  /** The format version written, and the newest one read. */
  public static final int FORMAT_VERSION = 1;

  private static final String IDENTIFIER = "TRGF";
  private static final DType[] DTYPES = new DType[16];

  static {
    DTYPES[FbDType.BOOL] = DType.BOOL;
    DTYPES[FbDType.INT8] = DType.INT8;
    DTYPES[FbDType.INT16] = DType.INT16;
    DTYPES[FbDType.INT32] = DType.INT32;
    DTYPES[FbDType.INT64] = DType.INT64;
    DTYPES[FbDType.UINT8] = DType.UINT8;
    DTYPES[FbDType.UINT16] = DType.UINT16;
    DTYPES[FbDType.UINT32] = DType.UINT32;
    DTYPES[FbDType.UINT64] = DType.UINT64;
    DTYPES[FbDType.FLOAT16] = DType.FLOAT16;
    DTYPES[FbDType.BFLOAT16] = DType.BFLOAT16;
    DTYPES[FbDType.FLOAT32] = DType.FLOAT32;
    DTYPES[FbDType.FLOAT64] = DType.FLOAT64;
    DTYPES[FbDType.COMPLEX64] = DType.COMPLEX64;
    DTYPES[FbDType.COMPLEX128] = DType.COMPLEX128;
    DTYPES[FbDType.STRING] = DType.STRING;
  }

  private GraphFb() {}

  private static byte code(DType t) {
    for (byte i = 0; i < DTYPES.length; i++) {
      if (DTYPES[i] == t) {
        return i;
      }
    }
    throw new IllegalStateException("no graph.fb code for dtype " + t);
  }

  // ------------------------------------------------------------------------------------ write

  /**
   * The graph.fb bytes of a graph.
   *
   * @throws IllegalArgumentException when a constant is a string tensor (constants are fixed-width)
   */
  public static byte[] toBytes(Graph graph) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    List<Variable> vars = graph.variables();
    int[] varOffsets = new int[vars.size()];
    for (int i = 0; i < vars.size(); i++) {
      // Only a CONSTANT variable carries data: a graph read from a file may give another
      // variable the same name (a problem validate() reports), which must not take the data.
      Variable v = vars.get(i);
      varOffsets[i] = writeVariable(b, v,
          v.kind() == VariableKind.CONSTANT ? graph.constants().get(v.name()) : null);
    }
    int varsVec = FbGraph.createVariablesVector(b, varOffsets);
    List<Op> ops = graph.ops();
    int[] opOffsets = new int[ops.size()];
    for (int i = 0; i < ops.size(); i++) {
      opOffsets[i] = writeOp(b, ops.get(i));
    }
    int opsVec = FbGraph.createOpsVector(b, opOffsets);
    int root = FbGraph.createFbGraph(b, FORMAT_VERSION, varsVec, opsVec);
    b.finish(root, IDENTIFIER);
    return b.sizedByteArray();
  }

  private static int writeVariable(FlatBufferBuilder b, Variable v, Tensor constant) {
    int name = b.createString(v.name());
    int shape = FbVariable.createShapeVector(b, v.shape().dims());
    int data = 0;
    if (constant != null) {
      if (!constant.dtype().isFixedWidth()) {
        throw new IllegalArgumentException("constant '" + v.name() + "' is a " + constant.dtype()
            + " tensor; graph.fb stores fixed-width constants only");
      }
      byte[] bytes = new byte[Math.toIntExact(constant.byteSize())];
      constant.copyBytes(0, bytes, 0, bytes.length);
      data = FbVariable.createConstantDataVector(b, bytes);
    }
    FbVariable.startFbVariable(b);
    FbVariable.addName(b, name);
    FbVariable.addDtype(b, code(v.dtype()));
    FbVariable.addKind(b, kindCode(v.kind()));
    FbVariable.addShape(b, shape);
    if (constant != null) {
      FbVariable.addConstantData(b, data);
    }
    return FbVariable.endFbVariable(b);
  }

  private static byte kindCode(VariableKind k) {
    return switch (k) {
      case PLACEHOLDER -> FbVariableKind.PLACEHOLDER;
      case CONSTANT -> FbVariableKind.CONSTANT;
      case TRAINABLE -> FbVariableKind.TRAINABLE;
      case ARRAY -> FbVariableKind.ARRAY;
    };
  }

  private static int strings(FlatBufferBuilder b, List<String> values) {
    int[] offs = new int[values.size()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = b.createString(values.get(i));
    }
    b.startVector(4, offs.length, 4);
    for (int i = offs.length - 1; i >= 0; i--) {
      b.addOffset(offs[i]);
    }
    return b.endVector();
  }

  private static int writeOp(FlatBufferBuilder b, Op op) {
    OpArgs a = op.args();
    int name = b.createString(op.name());
    int type = b.createString(op.type());
    int inputs = strings(b, op.inputs());
    int outputs = strings(b, op.outputs());
    int intNames = strings(b, a.intNames());
    int intValues = FbOp.createIntArgValuesVector(b, a.intValues());
    int floatNames = strings(b, a.floatNames());
    int floatValues = FbOp.createFloatArgValuesVector(b, a.floatValues());
    int boolNames = strings(b, a.boolNames());
    int boolValues = FbOp.createBoolArgValuesVector(b, a.boolValues());
    int dtypeNames = strings(b, a.dtypeNames());
    byte[] codes = new byte[a.dtypeValues().size()];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = code(a.dtypeValues().get(i));
    }
    int dtypeValues = FbOp.createDtypeArgValuesVector(b, codes);
    return FbOp.createFbOp(b, name, type, inputs, outputs, intNames, intValues, floatNames,
        floatValues, boolNames, boolValues, dtypeNames, dtypeValues);
  }

  // ------------------------------------------------------------------------------------- read

  /** Reads graph.fb bytes. */
  public static Graph fromBytes(byte[] bytes) throws GraphFormatException {
    return read(ByteBuffer.wrap(bytes));
  }

  /**
   * Reads graph.fb from the buffer's remaining bytes (position and limit are left unchanged).
   *
   * @throws GraphFormatException when the bytes are not a graph.fb this version reads
   */
  public static Graph read(ByteBuffer buffer) throws GraphFormatException {
    ByteBuffer bb = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
    if (bb.remaining() < 8) {
      throw new GraphFormatException("graph.fb is " + bb.remaining() + " bytes: too short");
    }
    if (!FbGraph.FbGraphBufferHasIdentifier(bb)) {
      throw new GraphFormatException("not a graph.fb: file identifier is not " + IDENTIFIER);
    }
    try {
      return decode(FbGraph.getRootAsFbGraph(bb), bb.remaining());
    } catch (IndexOutOfBoundsException | BufferUnderflowException | IllegalArgumentException e) {
      throw new GraphFormatException("corrupt graph.fb: " + e.getMessage(), e);
    }
  }

  private static Graph decode(FbGraph g, int size) throws GraphFormatException {
    int version = g.formatVersion();
    if (version < 1 || version > FORMAT_VERSION) {
      throw new GraphFormatException("graph.fb format version " + version + " is not supported (this"
          + " reader handles 1 to " + FORMAT_VERSION + ")");
    }
    int nv = count(g.variablesLength(), size, "variables");
    List<Variable> vars = new ArrayList<>(nv);
    Map<String, Tensor> constants = new LinkedHashMap<>();
    FbVariable fv = new FbVariable();
    for (int i = 0; i < nv; i++) {
      g.variables(fv, i);
      vars.add(readVariable(fv, i, size, constants));
    }
    int no = count(g.opsLength(), size, "ops");
    List<Op> ops = new ArrayList<>(no);
    FbOp fo = new FbOp();
    for (int i = 0; i < no; i++) {
      g.ops(fo, i);
      ops.add(readOp(fo, i, size));
    }
    return Graph.of(vars, ops, constants);
  }

  /** A vector length, checked against the buffer so a corrupt count cannot make us allocate. */
  private static int count(int n, int size, String what) throws GraphFormatException {
    if (n < 0 || n > size) {
      throw new GraphFormatException("corrupt graph.fb: " + what + " count " + n + " exceeds the "
          + size + "-byte buffer");
    }
    return n;
  }

  private static String required(String s, String what) throws GraphFormatException {
    if (s == null || s.isEmpty()) {
      throw new GraphFormatException("graph.fb: " + what + " has no name");
    }
    return s;
  }

  private static DType dtype(byte code, String where) throws GraphFormatException {
    if (code < 0 || code >= DTYPES.length) {
      throw new GraphFormatException("graph.fb: " + where + " has unknown dtype code " + code);
    }
    return DTYPES[code];
  }

  private static Variable readVariable(FbVariable fv, int index, int size,
      Map<String, Tensor> constants) throws GraphFormatException {
    String name = required(fv.name(), "variable " + index);
    DType dt = dtype(fv.dtype(), "variable '" + name + "'");
    VariableKind kind = switch (fv.kind()) {
      case FbVariableKind.PLACEHOLDER -> VariableKind.PLACEHOLDER;
      case FbVariableKind.CONSTANT -> VariableKind.CONSTANT;
      case FbVariableKind.TRAINABLE -> VariableKind.TRAINABLE;
      case FbVariableKind.ARRAY -> VariableKind.ARRAY;
      default -> throw new GraphFormatException(
          "graph.fb: variable '" + name + "' has unknown kind code " + fv.kind());
    };
    int rank = count(fv.shapeLength(), size, "shape of '" + name + "'");
    long[] dims = new long[rank];
    for (int i = 0; i < rank; i++) {
      dims[i] = fv.shape(i);
      if (dims[i] < -1) {
        throw new GraphFormatException("graph.fb: variable '" + name + "' has dimension " + dims[i]);
      }
    }
    PartialShape shape = PartialShape.of(dims);
    int dataLen = fv.constantDataLength();
    if (kind == VariableKind.CONSTANT) {
      if (!shape.isFullyKnown() || !dt.isFixedWidth()) {
        throw new GraphFormatException("graph.fb: constant '" + name + "' must be fixed-width with a "
            + "known shape, got " + dt + shape);
      }
      long need;
      try {
        need = Math.multiplyExact(shape.knownSize(), (long) dt.itemSize());
      } catch (ArithmeticException e) {
        throw new GraphFormatException("graph.fb: constant '" + name + "' shape " + shape
            + " is too large", e);
      }
      if (need != dataLen) {
        throw new GraphFormatException("graph.fb: constant '" + name + "' is " + dt + shape
            + " (" + need + " bytes) but holds " + dataLen + " bytes");
      }
      ByteBuffer data = fv.constantDataAsByteBuffer();
      byte[] copy = new byte[dataLen];
      if (dataLen > 0) {
        data.get(copy);
      }
      constants.put(name, Tensor.fromLittleEndian(dt, shape.toShape(), copy));
    } else if (dataLen != 0) {
      throw new GraphFormatException("graph.fb: " + kind + " variable '" + name
          + "' carries constant data");
    }
    return new Variable(name, dt, shape, kind);
  }

  private interface StringAt {
    String at(int i);
  }

  private static List<String> strings(int n, StringAt get, int size, String what)
      throws GraphFormatException {
    int len = count(n, size, what);
    List<String> out = new ArrayList<>(len);
    for (int i = 0; i < len; i++) {
      String s = get.at(i);
      if (s == null) {
        throw new GraphFormatException("graph.fb: " + what + " entry " + i + " is missing");
      }
      out.add(s);
    }
    return out;
  }

  private static Op readOp(FbOp fo, int index, int size) throws GraphFormatException {
    String name = required(fo.name(), "op " + index);
    String type = required(fo.opType(), "op '" + name + "' type");
    String where = "op '" + name + "'";
    List<String> inputs = strings(fo.inputsLength(), fo::inputs, size, where + " inputs");
    List<String> outputs = strings(fo.outputsLength(), fo::outputs, size, where + " outputs");
    OpArgs.Builder args = OpArgs.builder();
    try {
      List<String> in = strings(fo.intArgNamesLength(), fo::intArgNames, size, where + " int names");
      pairs(in.size(), fo.intArgValuesLength(), where + " integer");
      for (int i = 0; i < in.size(); i++) {
        args.putInt(in.get(i), fo.intArgValues(i));
      }
      List<String> fn = strings(fo.floatArgNamesLength(), fo::floatArgNames, size,
          where + " float names");
      pairs(fn.size(), fo.floatArgValuesLength(), where + " floating");
      for (int i = 0; i < fn.size(); i++) {
        args.putFloat(fn.get(i), fo.floatArgValues(i));
      }
      List<String> bn = strings(fo.boolArgNamesLength(), fo::boolArgNames, size, where + " bool names");
      pairs(bn.size(), fo.boolArgValuesLength(), where + " boolean");
      for (int i = 0; i < bn.size(); i++) {
        args.putBool(bn.get(i), fo.boolArgValues(i));
      }
      List<String> dn = strings(fo.dtypeArgNamesLength(), fo::dtypeArgNames, size,
          where + " dtype names");
      pairs(dn.size(), fo.dtypeArgValuesLength(), where + " dtype");
      for (int i = 0; i < dn.size(); i++) {
        args.putDType(dn.get(i), dtype(fo.dtypeArgValues(i), where + " argument " + dn.get(i)));
      }
    } catch (IllegalArgumentException e) {
      throw new GraphFormatException("graph.fb: " + where + ": " + e.getMessage(), e);
    }
    return new Op(name, type, inputs, outputs, args.build());
  }

  private static void pairs(int names, int values, String what) throws GraphFormatException {
    if (names != values) {
      throw new GraphFormatException("graph.fb: " + what + " arguments have " + names + " names but "
          + values + " values");
    }
  }
}
