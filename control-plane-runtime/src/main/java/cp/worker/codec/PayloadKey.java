package cp.worker.codec;

import cp.worker.ConfigException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 key that encrypts workflow payloads, from {@code CP_PAYLOAD_KEY} (base64 of 32
 * random bytes, e.g. {@code openssl rand -base64 32}).
 *
 * <p>Its {@link #id()} is the first 8 hex digits of the key's SHA-256. The id travels in every
 * encrypted payload's metadata, so a worker, replayer or codec server holding another key can
 * say which key a payload needs instead of failing with an opaque authentication error. The id
 * reveals nothing useful about a 256-bit random key. Like {@code cp.gateway.Secret}, this class
 * never prints the key: {@link #toString()} shows the id only, and no error quotes the value.
 */
public final class PayloadKey {
  /** The environment variable that holds the key. */
  public static final String VARIABLE = "CP_PAYLOAD_KEY";
  /** AES-256. */
  public static final int KEY_BYTES = 32;
  /** Hex digits of the SHA-256 that name a key: enough to tell keys apart, too few to matter. */
  static final int ID_HEX_DIGITS = 8;
  static final String HOW_TO_MAKE_ONE = "generate one with 'openssl rand -base64 32'";

  private final SecretKey key;
  private final String id;

  private PayloadKey(byte[] raw) {
    this.key = new SecretKeySpec(raw, "AES");
    this.id = idOf(raw);
  }

  /** The key {@code env} configures, or empty when {@code CP_PAYLOAD_KEY} is unset or blank (encryption off). */
  public static Optional<PayloadKey> fromEnv(Map<String, String> env) {
    String raw = env.get(VARIABLE);
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(parse(raw));
  }

  /**
   * Parses base64 (standard or URL-safe alphabet; surrounding whitespace ignored).
   *
   * @throws ConfigException naming {@code CP_PAYLOAD_KEY} if the text is not base64 or not 32 bytes
   */
  public static PayloadKey parse(String base64) {
    String text = base64 == null ? "" : base64.strip();
    byte[] raw;
    try {
      raw = (text.indexOf('-') >= 0 || text.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder())
          .decode(text);
    } catch (IllegalArgumentException e) {
      // The decoder's message can quote a character of the key; say where instead.
      throw new ConfigException(VARIABLE, VARIABLE + " is not valid base64 (" + text.length()
          + " characters); it must be the base64 of " + KEY_BYTES + " random bytes: " + HOW_TO_MAKE_ONE);
    }
    try {
      if (raw.length != KEY_BYTES) {
        throw new ConfigException(VARIABLE, VARIABLE + " decodes to " + raw.length + " bytes; AES-256 needs exactly "
            + KEY_BYTES + ": " + HOW_TO_MAKE_ONE);
      }
      return new PayloadKey(raw);
    } finally {
      Arrays.fill(raw, (byte) 0);
    }
  }

  /** A key from raw bytes (tests, tools). */
  public static PayloadKey of(byte[] raw) {
    if (raw == null || raw.length != KEY_BYTES) {
      throw new IllegalArgumentException("a payload key is exactly " + KEY_BYTES + " bytes");
    }
    return new PayloadKey(raw.clone());
  }

  /** First 8 hex digits of the key's SHA-256: names the key in payload metadata and messages. */
  public String id() {
    return id;
  }

  SecretKey secretKey() {
    return key;
  }

  private static String idOf(byte[] raw) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(raw);
      return HexFormat.of().formatHex(digest).substring(0, ID_HEX_DIGITS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "PayloadKey(id=" + id + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PayloadKey other && MessageDigest.isEqual(key.getEncoded(), other.key.getEncoded());
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }
}
