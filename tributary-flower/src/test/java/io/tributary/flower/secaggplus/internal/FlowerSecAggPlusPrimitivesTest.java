package io.tributary.flower.secaggplus.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.flower.fleet.FlowerPeer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SecAgg+ pieces against Flower 1.27's own Python functions: numpy's masks, PyCryptodome's
 * Shamir shares, the PEM keys, the HKDF-derived pairwise key and Fernet tokens, each made on
 * one side and read on the other.
 */
@Timeout(600)
class FlowerSecAggPlusPrimitivesTest {
  private static final String SCRIPT = """
      import sys, base64
      from flwr.common.secure_aggregation.secaggplus_utils import pseudo_rand_gen
      from flwr.common.secure_aggregation.crypto.shamir import create_shares, combine_shares
      from flwr.common.secure_aggregation.crypto.symmetric_encryption import (
          generate_shared_key, encrypt, decrypt)
      from flwr.supercore.primitives.asymmetric import (
          generate_key_pairs, bytes_to_private_key, bytes_to_public_key,
          public_key_to_bytes, private_key_to_bytes)
      inp = dict(l.split("=", 1) for l in open(sys.argv[1]).read().split())
      b = lambda k: base64.b64decode(inp[k])
      e = lambda x: base64.b64encode(x).decode()
      def out(k, v): print("OUT " + k + "=" + v)
      for name, rng, dims in (("m32", 2**32, [(3,), (2, 2), ()]), ("m40", 2**40, [(5,)]),
                              ("m7", 7, [(6,)])):
          out(name, ",".join(str(int(x)) for a in pseudo_rand_gen(b("seed"), rng, dims)
                             for x in a.flatten()))
      out("combined", e(combine_shares([b("share0"), b("share2"), b("share4")])))
      for i, s in enumerate(create_shares(b("secret"), 3, 5)):
          out("py_share%d" % i, e(s))
      shared = generate_shared_key(bytes_to_private_key(b("sk_a")), bytes_to_public_key(b("pk_b")))
      out("shared", e(shared))
      out("from_java", e(decrypt(shared, b("token"))))
      out("token_py", e(encrypt(shared, b"from python")))
      sk, pk = generate_key_pairs()
      out("py_sk", e(private_key_to_bytes(sk)))
      out("py_pk", e(public_key_to_bytes(pk)))
      out("shared_py_b", e(generate_shared_key(sk, bytes_to_public_key(b("pk_b")))))
      """;

  @TempDir Path dir;

  @Test
  void primitives_madeInJavaAndPython_readOnTheOtherSide() throws Exception {
    FlowerPeer flower = FlowerPeer.require();
    SecureRandom random = new SecureRandom();
    byte[] seed = new byte[44];
    random.nextBytes(seed);
    byte[] secret = FlowerCrypto.privateKeyPem(FlowerCrypto.generateKeyPair().getPrivate());
    List<byte[]> shares = ShamirGf128.split(secret, 3, 5, random);
    KeyPair a = FlowerCrypto.generateKeyPair();
    KeyPair b = FlowerCrypto.generateKeyPair();
    byte[] shared = FlowerCrypto.sharedKey(a.getPrivate(), b.getPublic());
    byte[] token = FlowerCrypto.encrypt(shared, "from java".getBytes(StandardCharsets.UTF_8),
        random);
    Base64.Encoder enc = Base64.getEncoder();
    StringBuilder in = new StringBuilder();
    in.append("seed=").append(enc.encodeToString(seed)).append('\n');
    for (int i = 0; i < 5; i++) {
      in.append("share").append(i).append('=').append(enc.encodeToString(shares.get(i)))
          .append('\n');
    }
    in.append("secret=").append(enc.encodeToString(secret)).append('\n')
        .append("sk_a=").append(enc.encodeToString(FlowerCrypto.privateKeyPem(a.getPrivate())))
        .append('\n')
        .append("pk_b=").append(enc.encodeToString(FlowerCrypto.publicKeyPem(b.getPublic())))
        .append('\n')
        .append("token=").append(enc.encodeToString(token)).append('\n');
    Path input = Files.writeString(dir.resolve("in.txt"), in);
    Path script = Files.writeString(dir.resolve("check.py"), SCRIPT);
    String log = flower.run(dir, Duration.ofMinutes(3), script.toString(), input.toString());
    Map<String, String> py = new java.util.HashMap<>();
    Matcher m = Pattern.compile("OUT (\\w+)=(.*)").matcher(log);
    while (m.find()) {
      py.put(m.group(1), m.group(2).strip());
    }
    Base64.Decoder dec = Base64.getDecoder();

    assertThat(py.get("m32")).isEqualTo(join(NumpyMasks.masks(seed, 1L << 32,
        new long[] {3, 4, 1})));
    assertThat(py.get("m40")).isEqualTo(join(NumpyMasks.masks(seed, 1L << 40, new long[] {5})));
    assertThat(py.get("m7")).isEqualTo(join(NumpyMasks.masks(seed, 7, new long[] {6})));
    assertThat(dec.decode(py.get("combined"))).isEqualTo(secret);
    List<byte[]> pyShares = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      pyShares.add(dec.decode(py.get("py_share" + i)));
    }
    assertThat(ShamirGf128.combine(List.of(pyShares.get(4), pyShares.get(1), pyShares.get(2))))
        .isEqualTo(secret);
    assertThat(dec.decode(py.get("shared"))).isEqualTo(shared);
    assertThat(new String(dec.decode(py.get("from_java")), StandardCharsets.UTF_8))
        .isEqualTo("from java");
    assertThat(new String(FlowerCrypto.decrypt(shared, dec.decode(py.get("token_py"))),
        StandardCharsets.UTF_8)).isEqualTo("from python");
    var pySk = FlowerCrypto.privateKey(dec.decode(py.get("py_sk")));
    var pyPk = FlowerCrypto.publicKey(dec.decode(py.get("py_pk")));
    assertThat(FlowerCrypto.sharedKey(pySk, b.getPublic()))
        .isEqualTo(dec.decode(py.get("shared_py_b")));
    assertThat(FlowerCrypto.sharedKey(b.getPrivate(), pyPk))
        .isEqualTo(dec.decode(py.get("shared_py_b")));
  }

  @Test
  void decrypt_tamperedToken_throwsGeneralSecurityException() throws Exception {
    byte[] key = FlowerCrypto.sharedKey(FlowerCrypto.generateKeyPair().getPrivate(),
        FlowerCrypto.generateKeyPair().getPublic());
    byte[] token = FlowerCrypto.encrypt(key, new byte[] {1, 2, 3}, new SecureRandom());
    byte[] raw = Base64.getUrlDecoder().decode(token);
    raw[30] ^= 1;
    assertThatThrownBy(() -> FlowerCrypto.decrypt(key, Base64.getUrlEncoder().encode(raw)))
        .isInstanceOf(GeneralSecurityException.class).hasMessageContaining("HMAC");
    assertThatThrownBy(() -> FlowerCrypto.decrypt(key, "not base64!".getBytes()))
        .isInstanceOf(GeneralSecurityException.class);
  }

  @Test
  void combine_tooFewOrForeignShares_doesNotReturnTheSecret() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    List<byte[]> shares = ShamirGf128.split(secret, 3, 5, new SecureRandom());
    assertThat(ShamirGf128.combine(shares.subList(1, 4))).isEqualTo(secret);
    assertThat(ShamirGf128.combine(shares)).isEqualTo(secret);
    byte[] result;
    try {
      result = ShamirGf128.combine(shares.subList(0, 2));
    } catch (IllegalArgumentException e) {
      result = null;
    }
    assertThat(result).isNotEqualTo(secret);
    assertThatThrownBy(() -> ShamirGf128.combine(List.of(shares.get(0), shares.get(0))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index");
    assertThatThrownBy(() -> ShamirGf128.combine(List.of(new byte[7])))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String join(List<long[]> arrays) {
    StringBuilder s = new StringBuilder();
    for (long[] a : arrays) {
      for (long v : a) {
        s.append(s.isEmpty() ? "" : ",").append(v);
      }
    }
    return s.toString();
  }
}
