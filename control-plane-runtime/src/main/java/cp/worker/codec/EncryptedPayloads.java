package cp.worker.codec;

import com.google.protobuf.ByteString;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.EncodingKeys;

/** The metadata that marks an encrypted payload (Temporal's sample format), and how to read it. */
public final class EncryptedPayloads {
  /** {@code encoding}. */
  public static final String ENCODING_KEY = EncodingKeys.METADATA_ENCODING_KEY;
  /** The encoding of an encrypted payload. */
  public static final ByteString ENCODING = ByteString.copyFromUtf8("binary/encrypted");
  public static final String CIPHER_KEY = "encryption-cipher";
  public static final String KEY_ID_KEY = "encryption-key-id";

  private EncryptedPayloads() {}

  public static boolean isEncrypted(Payload p) {
    return ENCODING.equals(p.getMetadataMap().get(ENCODING_KEY));
  }

  /** The id of the key that sealed {@code p}, or {@code "(none)"} when its metadata lacks one. */
  public static String keyId(Payload p) {
    String id = utf8(p.getMetadataMap().get(KEY_ID_KEY));
    return id == null || id.isBlank() ? "(none)" : id;
  }

  /** A metadata value as text, or null. */
  static String utf8(ByteString b) {
    return b == null ? null : b.toStringUtf8();
  }
}
