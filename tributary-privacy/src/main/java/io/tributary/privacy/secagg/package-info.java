/**
 * SecAgg+ secure aggregation (Bell, Bonawitz, Gascón, Lepoint and Raykova, "Secure Single-Server
 * Aggregation with (Poly)Logarithmic Overhead", CCS 2020): the server learns the sum of the
 * clients' vectors and nothing else about them, even when some clients drop out.
 *
 * <p>Each client talks to {@code k} neighbours on a public Harary graph drawn from a seed. It
 * advertises two X25519 public keys; agrees with each neighbour on a pairwise mask seed (one key
 * pair) and on an AES-GCM key (the other), both through HKDF-SHA256; splits its self-mask seed
 * {@code b_u} and its masking private key into {@code t}-out-of-k Shamir shares and sends each
 * neighbour its pair, encrypted; then sends its input plus the AES-CTR expansions of
 * {@code b_u} and of every pairwise seed (added towards larger ids, subtracted towards smaller),
 * modulo {@code 2^(inputBits + ceil(log2 n))}. Pairwise masks cancel in the sum; the server asks
 * the survivors for the shares of each survivor's {@code b_u} and of each dropped client's
 * masking key, never both for one client, removes the remaining masks and reduces.
 *
 * <p>Public API: {@link io.tributary.privacy.secagg.SecAggSettings}, the state machines
 * {@link io.tributary.privacy.secagg.SecAggClient} and
 * {@link io.tributary.privacy.secagg.SecAggServer} exchanging
 * {@link io.tributary.privacy.secagg.SecAggMessage} records, and
 * {@link io.tributary.privacy.secagg.SecAggPlus}, which runs rounds in memory (with a
 * {@link io.tributary.privacy.secagg.Dropouts} schedule) and provides the runtime's secure sum.
 *
 * <p><b>Cost per client</b>, for {@code k} neighbours and vectors of {@code m} elements: two key
 * pairs, {@code 2k} X25519 agreements (O(k)), {@code 2} Shamir splits into {@code k} shares of
 * degree {@code t - 1} (O(k t) field operations), {@code k} AES-GCM encryptions and decryptions
 * of 140 bytes, and {@code k + 1} PRG expansions of {@code m} 64-bit words (O(k m)), which
 * dominate for models. Messages: O(k) keys and ciphertexts, and one vector of {@code m} words.
 * The server reconstructs one secret per client (O(n t^2) field operations) and expands one seed
 * per survivor plus {@code k} per dropped client (O((n + d k) m)).
 *
 * <p><b>Threat model.</b> An honest-but-curious server, and clients that may not follow the
 * protocol: keys are not signed (no PKI), so an actively malicious server could substitute keys.
 * The clients check that the server's messages fit the public graph and answer unmask requests
 * once. The server accepts a recovered secret only when it matches what its owner published
 * first (the masking public key; a SHA-256 commitment to the self-mask seed), so forged shares
 * can fail a round but not move a secret, and refuses a sum with an element beyond what in-range
 * inputs can sum to. A client can still choose any input the range allows.
 */
package io.tributary.privacy.secagg;
