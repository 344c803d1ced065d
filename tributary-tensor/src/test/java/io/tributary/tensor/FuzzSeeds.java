package io.tributary.tensor;

import io.tributary.tensor.npy.Npy;
import io.tributary.tensor.npy.Npz;
import io.tributary.tensor.serialization.NumpyNdarraySerializer;
import io.tributary.tensor.serialization.Parameters;
import io.tributary.tensor.serialization.ParametersCodec;
import io.tributary.tensor.serialization.ProtoNdarraySerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Writes the seed corpus of this module's fuzz tests from the project's own writers.
 *
 * <p>Run from the module directory with the test class path, e.g. {@code java -cp
 * target/test-classes:target/classes:... io.tributary.tensor.FuzzSeeds}; it overwrites the
 * {@code seed-*} files under {@code src/test/resources} and leaves other inputs (such as crashes
 * turned into regression inputs) alone.
 */
public final class FuzzSeeds {
  private FuzzSeeds() {}

  /** Writes every seed file of this module. */
  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources/io/tributary/tensor");
    Tensor floats = Tensor.ofFloats(Shape.of(2, 3), 1, 2, 3, 4, 5, Float.NaN);
    Tensor longs = Tensor.ofLongs(Shape.scalar(), -7);
    Tensor strings = Tensor.ofStrings(Shape.of(2), "a", "\u00e9t\u00e9");
    Tensor bools = Tensor.ofBooleans(Shape.of(3, 1), true, false, true);
    Tensor empty = Tensor.zeros(DType.FLOAT64, Shape.of(0, 4));
    List<Tensor> all = List.of(floats, longs, strings, bools, empty);

    Path npy = root.resolve("npy/NpyFuzzTestInputs/fromBytes");
    Path blobs = root.resolve("serialization/NumpyNdarraySerializerFuzzTestInputs/deserialize");
    for (int i = 0; i < all.size(); i++) {
      byte[] bytes = Npy.toBytes(all.get(i));
      write(npy, "seed-valid-" + i, bytes);
      write(blobs, "seed-valid-" + i, bytes);
    }
    byte[] valid = Npy.toBytes(floats);
    write(npy, "seed-truncated", Arrays.copyOf(valid, valid.length - 5));
    write(npy, "seed-header-only", Arrays.copyOf(valid, 128));
    write(npy, "seed-fortran-be", npy("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }", 8));
    write(npy, "seed-object", npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", 8));
    write(blobs, "seed-truncated", Arrays.copyOf(valid, 40));

    LinkedHashMap<String, Tensor> named = new LinkedHashMap<>();
    named.put("w", floats);
    named.put("names", strings);
    named.put("b", longs);
    Path npz = root.resolve("npy/NpzFuzzTestInputs/read");
    byte[] stored = Npz.toBytes(named, false);
    write(npz, "seed-stored", stored);
    write(npz, "seed-deflated", Npz.toBytes(named, true));
    write(npz, "seed-empty", Npz.toBytes(new LinkedHashMap<>(), false));
    write(npz, "seed-truncated", Arrays.copyOf(stored, stored.length / 2));

    Path codec = root.resolve("serialization/ParametersCodecFuzzTestInputs/decode");
    byte[] numpyParams = ParametersCodec.encode(new NumpyNdarraySerializer().serialize(List.of(floats, longs)));
    Parameters protoParams = new ProtoNdarraySerializer().serializeNamed(named);
    write(codec, "seed-numpy", numpyParams);
    write(codec, "seed-proto", ParametersCodec.encode(protoParams));
    write(codec, "seed-empty", new byte[0]);
    write(codec, "seed-truncated", Arrays.copyOf(numpyParams, numpyParams.length - 3));

    Path values = root.resolve("serialization/ProtoNdarraySerializerFuzzTestInputs/deserializeNamed");
    for (int i = 0; i < protoParams.values().size(); i++) {
      write(values, "seed-valid-" + i, protoParams.values().get(i));
    }
    byte[] v0 = protoParams.values().get(0);
    write(values, "seed-truncated", Arrays.copyOf(v0, v0.length - 2));
  }

  /** An NPY 1.0 array with the given header dict and zero data bytes, unpadded. */
  private static byte[] npy(String dict, int dataBytes) {
    byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[10 + text.length + dataBytes];
    byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) text.length, (byte) (text.length >>> 8)};
    System.arraycopy(magic, 0, out, 0, magic.length);
    System.arraycopy(text, 0, out, 10, text.length);
    return out;
  }

  private static void write(Path dir, String name, byte[] bytes) throws IOException {
    Files.createDirectories(dir);
    Files.write(dir.resolve(name), bytes);
  }
}
