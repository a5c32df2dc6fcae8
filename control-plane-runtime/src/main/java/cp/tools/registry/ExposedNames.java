package cp.tools.registry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The names model providers are shown: only {@code [a-zA-Z0-9_-]}, at most {@value #MAX_LENGTH}
 * characters (Anthropic's and OpenAI's rule); an MCP tool as {@code <server>_<tool>}.
 *
 * <p>Sanitizing can make two names equal ({@code a.b} and {@code a_b}) and shortening can too;
 * a shortened name ends in a hash of the full one, and the registry refuses any remaining clash
 * at start, naming both tools.
 */
public final class ExposedNames {
  /** Providers' limit on a tool name. */
  public static final int MAX_LENGTH = 64;
  /** Hex digits of the full name's SHA-256 a shortened name ends with: enough to tell names apart. */
  static final int HASH_CHARS = 8;
  private static final Pattern NOT_ALLOWED = Pattern.compile("[^a-zA-Z0-9_-]");

  private ExposedNames() {}

  /** A built-in or Java tool: its name, sanitized. */
  public static String of(String name) {
    return bounded(NOT_ALLOWED.matcher(name).replaceAll("_"), name);
  }

  /** An MCP tool: {@code <server>_<tool>}, sanitized. */
  public static String ofMcp(String server, String tool) {
    String full = server + "/" + tool;
    return bounded(NOT_ALLOWED.matcher(server + "_" + tool).replaceAll("_"), full);
  }

  private static String bounded(String sanitized, String original) {
    if (sanitized.length() <= MAX_LENGTH) {
      return sanitized;
    }
    String hash = sha256Hex(original).substring(0, HASH_CHARS);
    return sanitized.substring(0, MAX_LENGTH - HASH_CHARS - 1) + "_" + hash;
  }

  private static String sha256Hex(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
