package io.tributary.spark;

import java.io.Serializable;

/**
 * What every task of a pass's Spark job needs, broadcast once per pass: the encoded settings
 * ({@link io.tributary.simulation.SettingsCodec}), which invocation runs, its encoded server
 * argument ({@link ValueCodec}), the pass and the runtime's results of the earlier passes. Only
 * bytes and numbers: Tributary objects never cross the wire.
 *
 * @param settings the encoded simulation settings
 * @param settingsKey a hash of {@code settings}, the key of the executors' cache
 * @param kind the invocation's {@link io.tributary.simulation.engine.Invocation.Kind} ordinal
 * @param round the invocation's round
 * @param serverArgument the encoded state or model
 * @param pass the pass's index within the invocation
 * @param earlier the runtime's opaque results of the earlier passes
 */
record PassJob(byte[] settings, String settingsKey, int kind, int round, byte[] serverArgument,
    int pass, byte[] earlier) implements Serializable {
  private static final long serialVersionUID = 1L;
}
