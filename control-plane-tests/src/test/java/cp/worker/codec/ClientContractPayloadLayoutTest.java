package cp.worker.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.google.protobuf.ByteString;
import io.temporal.api.common.v1.Payload;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * docs/client-contract.md, "Encrypted payloads": a client that follows only the layout the document
 * gives (metadata, key id = first 8 hex of SHA-256 over the raw key, data = 12-byte nonce ‖
 * ciphertext ‖ 16-byte tag, plaintext = the serialized original Payload), with nothing but the JDK's
 * AES/GCM, opens what the plane seals and seals what the plane opens.
 */
class ClientContractPayloadLayoutTest {
  static final byte[] RAW = new byte[32];

  static {
    new SecureRandom().nextBytes(RAW);
  }

  static final String BASE64 = Base64.getEncoder().encodeToString(RAW);

  static String keyIdPerTheDocument() throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(RAW)).substring(0, 8);
  }

  static Payload json(String text) {
    return Payload.newBuilder().putMetadata("encoding", ByteString.copyFromUtf8("json/plain"))
        .setData(ByteString.copyFromUtf8(text)).build();
  }

  @Test
  void aClientOpensWhatThePlaneSeals_byTheDocumentsLayout() throws Exception {
    Payload plain = json("{\"text\":\"what packages are installed?\"}");
    Payload sealed = new AesGcmPayloadCodec(PayloadKey.parse(BASE64)).encode(List.of(plain)).get(0);

    assertEquals("binary/encrypted", sealed.getMetadataMap().get("encoding").toStringUtf8());
    assertEquals("AES/GCM/NoPadding", sealed.getMetadataMap().get("encryption-cipher").toStringUtf8());
    assertEquals(keyIdPerTheDocument(), sealed.getMetadataMap().get("encryption-key-id").toStringUtf8());
    byte[] data = sealed.getData().toByteArray();
    assertEquals(12 + plain.toByteArray().length + 16, data.length, "nonce ‖ ciphertext ‖ tag");

    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(RAW, "AES"), new GCMParameterSpec(128, Arrays.copyOf(data, 12)));
    Payload opened = Payload.parseFrom(c.doFinal(data, 12, data.length - 12));
    assertEquals(plain, opened);
  }

  @Test
  void thePlaneOpensWhatAClientSeals_byTheDocumentsLayout() throws Exception {
    Payload plain = json("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":\"ADMIN\"}");
    byte[] nonce = new byte[12];
    new SecureRandom().nextBytes(nonce);
    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(RAW, "AES"), new GCMParameterSpec(128, nonce));
    byte[] sealedBytes = c.doFinal(plain.toByteArray());
    byte[] data = new byte[12 + sealedBytes.length];
    System.arraycopy(nonce, 0, data, 0, 12);
    System.arraycopy(sealedBytes, 0, data, 12, sealedBytes.length);
    Payload sealed = Payload.newBuilder()
        .putMetadata("encoding", ByteString.copyFrom("binary/encrypted", StandardCharsets.UTF_8))
        .putMetadata("encryption-cipher", ByteString.copyFromUtf8("AES/GCM/NoPadding"))
        .putMetadata("encryption-key-id", ByteString.copyFromUtf8(keyIdPerTheDocument()))
        .setData(ByteString.copyFrom(data)).build();

    Payload opened = new AesGcmPayloadCodec(PayloadKey.parse(BASE64)).decode(List.of(sealed)).get(0);
    assertEquals(plain, opened);
    assertArrayEquals(plain.getData().toByteArray(), opened.getData().toByteArray());
  }

  @Test
  void theKeyIdIsOverTheRawBytes_notTheBase64Text() throws Exception {
    String overText = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(BASE64.getBytes(StandardCharsets.US_ASCII))).substring(0, 8);
    assertEquals(keyIdPerTheDocument(), PayloadKey.parse(BASE64).id());
    assertNotEquals(overText, PayloadKey.parse(BASE64).id());
  }
}
