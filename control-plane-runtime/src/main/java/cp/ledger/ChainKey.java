package cp.ledger;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret that keys the ledgers' hash chain, from {@code CP_LEDGER_HMAC_KEY}.
 *
 * <p>With a key, an entry's {@code hash} is HMAC-SHA256(key, canonical JSON of the entry without
 * {@code hash}) instead of SHA-256 of the same bytes, and the entry says so in two hashed fields,
 * {@code "chain":"hmac-sha256"} and {@code "key_id"}. Someone who edits a line and re-computes
 * the rest of the chain cannot produce those hashes without the key, so {@code verify} with the
 * key names the edited line. The key is never stored with the ledgers.
 *
 * <p>The key is 64 or more hex digits, or the base64 of 32 or more bytes ({@code openssl rand
 * -hex 32}, {@code openssl rand -base64 32}). Its {@link #id()} is the first 8 hex digits of
 * HMAC-SHA256(key, {@value #ID_LABEL}): it tells keys apart (so "wrong key" is not reported as
 * "tampered") without a digest of the key itself. Like {@code cp.gateway.Secret} this class never
 * prints the key: {@link #toString()} shows the id, and no error message quotes the value.
 */
public final class ChainKey {
  /** The environment variable that holds the key. */
  public static final String VARIABLE = "CP_LEDGER_HMAC_KEY";
  /** The value of an entry's {@code chain} field when its hash is keyed. */
  public static final String ALGORITHM = "hmac-sha256";
  /** HMAC-SHA256's own output size: a shorter key weakens the MAC below its 256-bit design strength (RFC 2104 §3). */
  public static final int MIN_BYTES = 32;
  /** Hex digits of the id: enough to tell keys apart, too few to matter. */
  static final int ID_HEX_DIGITS = 8;
  static final String ID_LABEL = "cp-ledger-key-id";
  static final String HOW_TO_MAKE_ONE = "generate one with 'openssl rand -hex 32' or 'openssl rand -base64 32'";
  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

  private final SecretKeySpec key;
  private final String id;
  /** One initialised Mac per thread: a Mac is not thread-safe, and creating one per entry costs more than the MAC. */
  private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

  private ChainKey(byte[] raw) {
    this.key = new SecretKeySpec(raw, "HmacSHA256");
    this.id = HexFormat.of().formatHex(mac(ID_LABEL.getBytes(StandardCharsets.UTF_8))).substring(0, ID_HEX_DIGITS);
  }

  /** The key {@code env} sets, or empty when {@code CP_LEDGER_HMAC_KEY} is unset or blank (an unkeyed chain). */
  public static Optional<ChainKey> fromEnv(Map<String, String> env) {
    String raw = env.get(VARIABLE);
    return raw == null || raw.isBlank() ? Optional.empty() : Optional.of(parse(raw));
  }

  /**
   * Parses hex (64 or more hex digits) or base64 (standard or URL-safe).
   *
   * @throws IllegalArgumentException whose message starts with the variable's name and never quotes the value
   */
  public static ChainKey parse(String text) {
    String t = text == null ? "" : text.strip();
    byte[] raw;
    if (t.length() >= 2 * MIN_BYTES && t.length() % 2 == 0 && HEX.matcher(t).matches()) {
      raw = HexFormat.of().parseHex(t);
    } else {
      try {
        raw = (t.indexOf('-') >= 0 || t.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(t);
      } catch (IllegalArgumentException e) {
        // The decoder's message can quote a character of the key; say how long it was instead.
        throw new IllegalArgumentException(VARIABLE + ": not hex or base64 (" + t.length() + " characters); it must be "
            + 2 * MIN_BYTES + "+ hex digits or the base64 of " + MIN_BYTES + "+ random bytes: " + HOW_TO_MAKE_ONE);
      }
    }
    try {
      if (raw.length < MIN_BYTES) {
        throw new IllegalArgumentException(VARIABLE + ": too short: it decodes to " + raw.length + " bytes; an HMAC-SHA256"
            + " chain key needs at least " + MIN_BYTES + ": " + HOW_TO_MAKE_ONE);
      }
      return new ChainKey(raw);
    } finally {
      Arrays.fill(raw, (byte) 0);
    }
  }

  /** A key from raw bytes (tests, tools). */
  public static ChainKey of(byte[] raw) {
    if (raw == null || raw.length < MIN_BYTES) {
      throw new IllegalArgumentException("a ledger chain key is at least " + MIN_BYTES + " bytes");
    }
    return new ChainKey(raw.clone());
  }

  /** The key's public name (8 hex digits), written into every keyed entry as {@code key_id}. */
  public String id() {
    return id;
  }

  /** HMAC-SHA256 of {@code data} under this key. */
  byte[] mac(byte[] data) {
    return macs.get().doFinal(data);
  }

  private Mac newMac() {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return m;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  /** Hex HMAC-SHA256 of the UTF-8 bytes of {@code text}. */
  String macHex(String text) {
    return HexFormat.of().formatHex(mac(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public String toString() {
    return "ChainKey(" + ALGORITHM + ", id=" + id + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChainKey other && MessageDigest.isEqual(key.getEncoded(), other.key.getEncoded());
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }
}
