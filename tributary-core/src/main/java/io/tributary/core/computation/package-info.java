/**
 * The Java authoring API: write a federated computation as an ordinary Java lambda over
 * {@link io.tributary.core.computation.Value}s, and get back a checked
 * {@link io.tributary.core.computation.Computation}.
 *
 * <pre>{@code
 * Computation avg = Federated.computation(Types.parse("{float32}@CLIENTS"),
 *     readings -> Intrinsics.federatedMean(readings));
 * }</pre>
 *
 * <p>The lambda runs once, at definition time, on symbolic values: every intrinsic call is
 * checked against its signature right away, and a misfit throws a
 * {@link io.tributary.core.computation.DefinitionException} that names the intrinsic, the
 * expected and the actual type, and the line of user code that made the call. Each call's result
 * becomes a named local of the computation's block, so a value used twice is computed once.
 */
package io.tributary.core.computation;
