/**
 * Op definitions and their kernels: shape and dtype inference, and computation on {@link
 * io.tributary.graph.ops.NdArray}s.
 *
 * <p>{@link io.tributary.graph.ops.OpRegistry} maps each op type to its {@link
 * io.tributary.graph.ops.OpDef}; {@link io.tributary.graph.ops.GraphExecutor} runs a graph.
 * Kernels work on primitive arrays; float32 matrix products use {@link io.tributary.graph.ops.Gemm}.
 */
package io.tributary.graph.ops;
