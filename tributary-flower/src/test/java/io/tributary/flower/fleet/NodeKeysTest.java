package io.tributary.flower.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading node keys. The files in {@code fleet/keys} were written by OpenSSH's
 * {@code ssh-keygen -t ecdsa -b 256|384|521 -N ""} (and {@code -N secret} for
 * {@code encrypted}, {@code -t ed25519} for {@code ed25519}); {@code nistp384.pkcs8} and
 * {@code nistp384.pub.pem} are the same key converted by {@code ssh-keygen -p -m PKCS8} and
 * {@code ssh-keygen -e -m PKCS8}.
 */
class NodeKeysTest {
  @TempDir Path dir;

  private Path key(String name) throws IOException {
    Path p = dir.resolve(name);
    if (!Files.exists(p)) {
      try (InputStream in = getClass().getResourceAsStream("/fleet/keys/" + name)) {
        Files.copy(in, p);
      }
    }
    return p;
  }

  @ParameterizedTest
  @ValueSource(ints = {256, 384, 521})
  void read_sshKeygenPrivateKeyAlone_givesThePairWithThePublicKeyOfItsPubFile(int bits)
      throws Exception {
    KeyPair pair = NodeKeys.read(key("nistp" + bits));

    KeyPair withPub = NodeKeys.read(key("nistp" + bits), key("nistp" + bits + ".pub"));
    assertThat(pair.getPublic()).isEqualTo(withPub.getPublic());
    assertThat(((ECPublicKey) pair.getPublic()).getParams().getCurve().getField().getFieldSize())
        .isEqualTo(bits);
    assertThat(io.tributary.flower.fleet.internal.NodeAuth.isPair(pair)).isTrue();
  }

  @Test
  void read_sameKeyAsOpenSshAndAsPem_givesEqualKeys() throws Exception {
    KeyPair ssh = NodeKeys.read(key("nistp384"), key("nistp384.pub"));
    KeyPair pem = NodeKeys.read(key("nistp384.pkcs8"), key("nistp384.pub.pem"));
    KeyPair mixed = NodeKeys.read(key("nistp384"), key("nistp384.pub.pem"));

    assertThat(ssh.getPublic()).isEqualTo(pem.getPublic()).isEqualTo(mixed.getPublic());
    assertThat(((ECPrivateKey) ssh.getPrivate()).getS())
        .isEqualTo(((ECPrivateKey) pem.getPrivate()).getS());
  }

  @Test
  void read_publicKeyOfAnotherPair_refusesNamingThePublicKeyFile() throws Exception {
    NodeKeyException e = catchThrowableOfType(NodeKeyException.class,
        () -> NodeKeys.read(key("nistp384"), key("nistp256.pub")));

    assertThat(e.file()).isEqualTo(key("nistp256.pub"));
    assertThat(e.getMessage()).contains("nistp256.pub", "is not the public key of",
        "nistp384");
  }

  @Test
  void read_encryptedKey_refusesSayingHowToRemoveThePassphrase() throws Exception {
    assertThatThrownBy(() -> NodeKeys.read(key("encrypted")))
        .isInstanceOf(NodeKeyException.class)
        .hasMessageContaining("encrypted").hasMessageContaining("ssh-keygen -p")
        .hasMessageContaining(key("encrypted").toString());
  }

  @Test
  void read_ed25519Key_refusesAsNotEcdsa() throws Exception {
    assertThatThrownBy(() -> NodeKeys.read(key("ed25519")))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("'ssh-ed25519' key")
        .hasMessageContaining("ECDSA");
    assertThatThrownBy(() -> NodeKeys.read(key("nistp384"), key("ed25519.pub")))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("ed25519.pub");
  }

  @Test
  void read_pkcs8PrivateKeyAlone_refusesAskingForThePublicKey() throws Exception {
    assertThatThrownBy(() -> NodeKeys.read(key("nistp384.pkcs8")))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("PKCS#8")
        .hasMessageContaining("public key");
  }

  @Test
  void read_missingOrOtherFiles_refusesNamingTheFile() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "hello\n");
    Path big = Files.write(dir.resolve("big"), new byte[70_000]);

    assertThatThrownBy(() -> NodeKeys.read(dir.resolve("none")))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("none")
        .hasMessageContaining("not a readable file");
    assertThatThrownBy(() -> NodeKeys.read(text)).isInstanceOf(NodeKeyException.class)
        .hasMessageContaining("notes.txt").hasMessageContaining("not an ECDSA private key");
    assertThatThrownBy(() -> NodeKeys.read(big)).isInstanceOf(NodeKeyException.class)
        .hasMessageContaining("larger than");
    assertThatThrownBy(() -> NodeKeys.read(key("nistp384"), text))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("notes.txt")
        .hasMessageContaining("not an ECDSA public key");
  }

  private static byte[] body(String pemText) {
    String b64 = pemText.replaceAll("-----[A-Z ]+-----", "");
    return Base64.getMimeDecoder().decode(b64.strip());
  }

  private Path privateFile(String name, byte[] body) throws IOException {
    return Files.writeString(dir.resolve(name), "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(body)
        + "\n-----END OPENSSH PRIVATE KEY-----\n");
  }

  @Test
  void read_everyTruncationOfAPrivateKey_refusesWithNodeKeyException() throws Exception {
    byte[] whole = body(Files.readString(key("nistp384")));

    for (int n = 0; n < whole.length; n++) {
      Path cut = privateFile("cut" + n, java.util.Arrays.copyOf(whole, n));
      assertThatThrownBy(() -> NodeKeys.read(cut)).as("first %d bytes", n)
          .isInstanceOf(NodeKeyException.class).hasMessageContaining("cut" + n);
    }
  }

  @Test
  void read_everyByteOfAPrivateKeyChanged_refusesOrReadsTheSameKey() throws Exception {
    byte[] whole = body(Files.readString(key("nistp384")));
    KeyPair original = NodeKeys.read(key("nistp384"));

    for (int i = 0; i < whole.length; i++) {
      byte[] changed = whole.clone();
      changed[i] ^= (byte) 0x41;
      Path p = privateFile("changed" + i, changed);
      try {
        KeyPair read = NodeKeys.read(p);
        // only the comment may change without changing the key
        assertThat(read.getPublic()).as("byte %d", i).isEqualTo(original.getPublic());
        assertThat(read.getPrivate()).as("byte %d", i).isEqualTo(original.getPrivate());
      } catch (NodeKeyException e) {
        assertThat(e.file()).isEqualTo(p);
      }
    }
  }

  @Test
  void read_lengthFieldOfFourGigabytes_refusesWithoutAllocating() throws Exception {
    byte[] whole = body(Files.readString(key("nistp384")));
    // the cipher name's length, right after the 15-byte magic
    whole[15] = (byte) 0xff;
    whole[16] = (byte) 0xff;
    whole[17] = (byte) 0xff;
    whole[18] = (byte) 0xf0;

    assertThatThrownBy(() -> NodeKeys.read(privateFile("huge", whole)))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("length of 4294967280");
  }

  @Test
  void read_publicLineWithWrongTypeOrPointOffCurve_refuses() throws Exception {
    String line = Files.readString(key("nistp384.pub"));
    Path renamed = Files.writeString(dir.resolve("renamed.pub"),
        line.replace("ecdsa-sha2-nistp384 ", "ecdsa-sha2-nistp256 "));
    String[] f = line.split(" ");
    byte[] blob = Base64.getDecoder().decode(f[1]);
    blob[blob.length - 1] ^= 1;
    Path off = Files.writeString(dir.resolve("off.pub"),
        f[0] + " " + Base64.getEncoder().encodeToString(blob) + " x\n",
        StandardCharsets.US_ASCII);

    assertThatThrownBy(() -> NodeKeys.read(key("nistp384"), renamed))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("renamed.pub")
        .hasMessageContaining("holds a ecdsa-sha2-nistp384 key");
    assertThatThrownBy(() -> NodeKeys.read(key("nistp384"), off))
        .isInstanceOf(NodeKeyException.class).hasMessageContaining("off.pub")
        .hasMessageContaining("not on nistp384");
  }
}
