package cp.workflows;

import cp.model.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Checks a user's message before it may become a turn: not empty, within the agent's byte
 * limit, and free of control characters other than tab, newline and carriage return.
 * Shared by the Update validator and the client, which checks first so an oversized message
 * never reaches Temporal at all.
 */
public final class TurnText {
  private TurnText() {}

  /** Whose limit an agent's maximum is, for messages. */
  static final String AGENT_LIMIT = "agent budget.max_message_bytes";

  /** The problem with {@code text} under the agent's byte limit, or empty when it is acceptable. */
  public static Optional<String> problem(String text, int maxBytes) {
    return problem(text, maxBytes, AGENT_LIMIT);
  }

  /**
   * The problem with {@code text}, or empty when it is acceptable.
   *
   * @param whoseLimit what sets {@code maxBytes}, named in the message
   */
  public static Optional<String> problem(String text, int maxBytes, String whoseLimit) {
    return check(text, maxBytes, whoseLimit).map(Refusal.Problem::message);
  }

  /** The problem with {@code text} under the agent's byte limit, with its refusal code; empty when acceptable. */
  public static Optional<Refusal.Problem> check(String text, int maxBytes) {
    return check(text, maxBytes, AGENT_LIMIT);
  }

  private static Optional<Refusal.Problem> check(String text, int maxBytes, String whoseLimit) {
    if (text == null || text.isBlank()) {
      return refused("the message is empty", Refusal.Code.EMPTY_TEXT);
    }
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (maxBytes > 0 && bytes > maxBytes) {
      return refused("the message is " + bytes + " bytes; the limit is " + maxBytes + " bytes (" + whoseLimit
          + ")", Refusal.Code.TEXT_TOO_LONG);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        return refused(String.format("the message contains control character U+%04X at position %d;"
            + " send plain text", (int) c, i), Refusal.Code.CONTROL_CHARACTER);
      }
      if (Character.isSurrogate(c)) {
        boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
            && Character.isLowSurrogate(text.charAt(i + 1));
        if (!paired) {
          return refused("the message contains an unpaired surrogate at position " + i + " (not valid Unicode)",
              Refusal.Code.INVALID_UNICODE);
        }
        i++;
      }
    }
    return Optional.empty();
  }

  private static Optional<Refusal.Problem> refused(String message, Refusal.Code code) {
    return Optional.of(new Refusal.Problem(message, Refusal.of(code, "text")));
  }
}
