/**
 * The server's moving parts: one proxy per {@code Join} stream, the client manager, the
 * interceptors that authenticate and negotiate before any state changes, and the Java functions
 * through which the runtime's federated computations reach remote clients ({@code
 * RemoteClientWork}), which read each invocation's state from the record the round host opens on
 * them ({@code FitRound}, {@code EvaluateRound}) and leave decoding to {@code FitResults}, {@code
 * EvaluateResults} and {@code ParameterCodec}, and a secure round's stand-ins to {@code
 * SecureCohort}.
 */
package io.tributary.flower.server.internal;
