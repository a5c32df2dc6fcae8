package cp.gateway;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An API key that never prints itself.
 *
 * <p>Not a record, because a record's generated {@code toString} would print the value. The
 * only way to the value is {@link #reveal()}, which the HTTP layer calls when it sets the auth
 * header; everything else (settings, exceptions, logs) sees the masked form. {@link #redact}
 * scrubs the value out of text that came from elsewhere, such as a provider error message that
 * echoes the key back.
 */
public final class Secret {
  /** No key: local OpenAI-compatible servers (Ollama, vLLM, llama.cpp) usually need none. */
  public static final Secret NONE = new Secret("");

  /** What {@link #toString()} and {@link #redact} print in place of the value. */
  public static final String MASK = "…(masked)";

  /** Common key prefix (Anthropic {@code sk-ant-}, OpenAI {@code sk-}); safe to show, says what kind of value it was. */
  private static final String KNOWN_PREFIX = "sk-";

  /** API keys are printable ASCII; anything else would break (or be echoed by) header validation. */
  private static final char FIRST_VISIBLE_ASCII = '!';
  private static final char LAST_VISIBLE_ASCII = '~';

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /**
   * Wraps {@code value}; surrounding whitespace (a common copy-paste slip) is trimmed.
   *
   * @throws IllegalArgumentException if the value holds a character an HTTP header cannot carry.
   *     Checked here because OkHttp's own check would quote the whole value in its message.
   */
  public static Secret of(String value) {
    String trimmed = Objects.requireNonNull(value, "secret value").strip();
    for (int i = 0; i < trimmed.length(); i++) {
      char c = trimmed.charAt(i);
      if (c < FIRST_VISIBLE_ASCII || c > LAST_VISIBLE_ASCII) {
        throw new IllegalArgumentException("API key has a character that cannot be sent in an HTTP header at position "
            + i + " (of " + trimmed.length() + "): check for a stray space, quote or line break from copy-paste");
      }
    }
    return trimmed.isEmpty() ? NONE : new Secret(trimmed);
  }

  public boolean isPresent() {
    return !value.isEmpty();
  }

  /** The raw value, for the one place that must send it. Never log or store the result. */
  public String reveal() {
    return value;
  }

  /** {@code text} with every occurrence of the value replaced by the masked form. */
  public String redact(String text) {
    if (text == null || value.isEmpty()) {
      return text;
    }
    return text.replace(value, toString());
  }

  @Override
  public String toString() {
    if (value.isEmpty()) {
      return "(none)";
    }
    return (value.startsWith(KNOWN_PREFIX) ? KNOWN_PREFIX : "") + MASK;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Secret other
        && MessageDigest.isEqual(
            value.getBytes(StandardCharsets.UTF_8), other.value.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public int hashCode() {
    return Boolean.hashCode(isPresent());
  }
}
