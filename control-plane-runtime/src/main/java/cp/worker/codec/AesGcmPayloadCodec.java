package cp.worker.codec;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.temporal.api.common.v1.Payload;
import io.temporal.payload.codec.PayloadCodec;
import io.temporal.payload.codec.PayloadCodecException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Encrypts every payload with AES-256-GCM, in the format of Temporal's encryption samples: the
 * whole original payload (metadata and data) is serialized and sealed, the result carries
 * {@code encoding: binary/encrypted}, {@code encryption-cipher: AES/GCM/NoPadding} and
 * {@code encryption-key-id}, and its data is a fresh random 12-byte nonce followed by the
 * ciphertext and the 16-byte tag.
 *
 * <p>Decoding leaves payloads that are not encrypted alone, so histories recorded before
 * encryption was turned on still replay. A payload sealed under another key fails with a
 * message naming both key ids; one that fails authentication under the right key id was altered.
 */
public final class AesGcmPayloadCodec implements PayloadCodec {
  /** The cipher, as written into the payload metadata. */
  public static final String CIPHER_NAME = "AES/GCM/NoPadding";
  /** Standard GCM nonce length. */
  static final int NONCE_BYTES = 12;
  /** Full-length GCM tag. */
  static final int TAG_BITS = 128;

  private final PayloadKey key;
  private final SecureRandom random = new SecureRandom();

  public AesGcmPayloadCodec(PayloadKey key) {
    this.key = Objects.requireNonNull(key, "key");
  }

  @Override
  public List<Payload> encode(List<Payload> payloads) {
    List<Payload> out = new ArrayList<>(payloads.size());
    for (Payload p : payloads) {
      out.add(encrypt(p));
    }
    return out;
  }

  @Override
  public List<Payload> decode(List<Payload> payloads) {
    List<Payload> out = new ArrayList<>(payloads.size());
    for (Payload p : payloads) {
      out.add(EncryptedPayloads.isEncrypted(p) ? decrypt(p) : p);
    }
    return out;
  }

  private Payload encrypt(Payload p) {
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    byte[] sealed;
    try {
      Cipher c = Cipher.getInstance(CIPHER_NAME);
      c.init(Cipher.ENCRYPT_MODE, key.secretKey(), new GCMParameterSpec(TAG_BITS, nonce));
      sealed = c.doFinal(p.toByteArray());
    } catch (GeneralSecurityException e) {
      throw new PayloadCodecException("cannot encrypt a payload with " + CIPHER_NAME + ": " + e.getMessage(), e);
    }
    ByteBuffer data = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed);
    return Payload.newBuilder()
        .putMetadata(EncryptedPayloads.ENCODING_KEY, EncryptedPayloads.ENCODING)
        .putMetadata(EncryptedPayloads.CIPHER_KEY, ByteString.copyFromUtf8(CIPHER_NAME))
        .putMetadata(EncryptedPayloads.KEY_ID_KEY, ByteString.copyFromUtf8(key.id()))
        .setData(ByteString.copyFrom(data.array()))
        .build();
  }

  private Payload decrypt(Payload p) {
    String payloadKeyId = EncryptedPayloads.keyId(p);
    if (!key.id().equals(payloadKeyId)) {
      throw new PayloadKeyMismatchException(payloadKeyId, key.id());
    }
    String cipherName = EncryptedPayloads.utf8(p.getMetadataMap().get(EncryptedPayloads.CIPHER_KEY));
    if (cipherName != null && !CIPHER_NAME.equals(cipherName)) {
      throw new PayloadCodecException("payload is encrypted with " + cipherName + "; this plane only knows "
          + CIPHER_NAME);
    }
    byte[] data = p.getData().toByteArray();
    if (data.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new PayloadCodecException("encrypted payload (key id " + payloadKeyId + ") is truncated: " + data.length
          + " bytes, less than a nonce and a tag");
    }
    byte[] plain;
    try {
      Cipher c = Cipher.getInstance(CIPHER_NAME);
      c.init(Cipher.DECRYPT_MODE, key.secretKey(), new GCMParameterSpec(TAG_BITS, data, 0, NONCE_BYTES));
      plain = c.doFinal(data, NONCE_BYTES, data.length - NONCE_BYTES);
    } catch (AEADBadTagException e) {
      throw new PayloadCodecException("encrypted payload (key id " + payloadKeyId + ") failed authentication: it was"
          + " altered after encryption, or sealed with a different key that has the same id");
    } catch (GeneralSecurityException e) {
      throw new PayloadCodecException("cannot decrypt a payload (key id " + payloadKeyId + "): " + e.getMessage(), e);
    }
    try {
      return Payload.parseFrom(plain);
    } catch (InvalidProtocolBufferException e) {
      throw new PayloadCodecException("decrypted payload (key id " + payloadKeyId + ") is not a Temporal payload", e);
    }
  }

  @Override
  public String toString() {
    return "AesGcmPayloadCodec(key id " + key.id() + ")";
  }
}
