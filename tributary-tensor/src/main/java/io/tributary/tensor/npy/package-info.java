/**
 * Reads and writes numpy's NPY and NPZ formats.
 *
 * <p>{@link io.tributary.tensor.npy.Npy} handles one array (format versions 1.0, 2.0 and 3.0,
 * either byte order, C or Fortran order); {@link io.tributary.tensor.npy.Npz} handles zip archives
 * of named arrays as written by {@code np.savez} and {@code np.savez_compressed}. Output is
 * byte-for-byte what {@code np.save} writes for the same little-endian C-order array. Input is
 * untrusted: every size is checked against the bytes actually available before anything is
 * allocated, and problems surface as {@link io.tributary.tensor.npy.NpyException}.
 */
package io.tributary.tensor.npy;
