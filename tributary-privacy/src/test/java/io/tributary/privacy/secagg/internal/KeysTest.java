package io.tributary.privacy.secagg.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPair;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.Test;

/** X25519 encodings and agreement, HKDF, AES-GCM and the mask generator. */
class KeysTest {
  private final SecureRandom random = new SecureRandom();

  @Test
  void agree_bothSidesOfRawEncodedKeys_giveTheSameSecret() throws Exception {
    KeyPair a = Keys.generate(random);
    KeyPair b = Keys.generate(random);

    byte[] ab = Keys.agree(Keys.privateKey(Keys.encode(a.getPrivate())),
        Keys.publicKey(Keys.encode(b.getPublic())));
    byte[] ba = Keys.agree(b.getPrivate(), a.getPublic());

    assertThat(ab).isEqualTo(ba).hasSize(32);
  }

  @Test
  void publicOf_privateScalar_isTheAdvertisedPublicKey() {
    KeyPair a = Keys.generate(random);

    assertThat(Keys.publicOf(Keys.encode(a.getPrivate()))).isEqualTo(Keys.encode(a.getPublic()));
  }

  @Test
  void publicKey_wrongLength_isRefusedBeforeUse() {
    assertThatThrownBy(() -> Keys.publicKey(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("32 bytes");
  }

  @Test
  void derive_differentPurposes_giveDifferentKeys() {
    byte[] secret = new byte[32];
    random.nextBytes(secret);

    assertThat(Keys.derive(secret, new byte[8], "a", 32))
        .isNotEqualTo(Keys.derive(secret, new byte[8], "b", 32));
  }

  @Test
  void decrypt_changedAssociatedData_failsAuthentication() throws Exception {
    byte[] key = new byte[32];
    random.nextBytes(key);
    byte[] c = ShareCipher.encrypt(key, new byte[] {1, 2, 3}, Protocol.aad(1, 2), random);

    assertThat(ShareCipher.decrypt(key, c, Protocol.aad(1, 2))).containsExactly(1, 2, 3);
    assertThatThrownBy(() -> ShareCipher.decrypt(key, c, Protocol.aad(1, 3)))
        .isInstanceOf(AEADBadTagException.class);
  }

  @Test
  void apply_addThenSubtract_cancelsAcrossChunks() {
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    long[] v = new long[10_000];
    v[5] = 7;

    MaskGenerator.apply(seed, v, false);
    long[] masked = v.clone();
    MaskGenerator.apply(seed, v, true);

    assertThat(masked[5]).isNotEqualTo(7);
    assertThat(v[5]).isEqualTo(7);
    assertThat(v).containsOnly(0, 7);
  }
}
