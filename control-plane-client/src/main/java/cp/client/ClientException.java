package cp.client;

import cp.model.Refusal;
import java.util.Optional;

/**
 * A client call could not be done; the message is one line a person can act on, in any program
 * (it names no command-line tool). Branch on {@link #kind()} and, for a refusal by the session,
 * {@link #refusal()}'s stable code; never on the message.
 */
public class ClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Why: the input was refused (by this client or by the session), the session does not exist,
   * the session has ended (a {@link SessionEndedException}), the service failed or cannot be
   * reached, or the service does not offer what the call needs (listing sessions on a service
   * without visibility queries).
   */
  public enum Kind { REFUSED, NOT_FOUND, ENDED, UNAVAILABLE, UNSUPPORTED }

  private final Kind kind;
  private final String sessionId;
  private final transient Refusal refusal;

  public ClientException(Kind kind, String message) {
    this(kind, message, null, null, null);
  }

  public ClientException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, null, null);
  }

  /**
   * @param sessionId the session the call was about, or null
   * @param refusal the session's refusal record ({@code turn_refused} / {@code start_refused}
   *     details[0]), or null when the session did not refuse (or this client refused first)
   */
  public ClientException(Kind kind, String message, Throwable cause, String sessionId, Refusal refusal) {
    super(message, cause);
    this.kind = kind;
    this.sessionId = sessionId;
    this.refusal = refusal;
  }

  public Kind kind() {
    return kind;
  }

  /** The session the failed call was about, or null (a start refused before any id was minted). */
  public String sessionId() {
    return sessionId;
  }

  /**
   * The session's own refusal: its stable {@code code} (e.g. {@code text_too_long},
   * {@code unknown_agent_class}), the {@code field} at fault; empty when the session did not refuse.
   */
  public Optional<Refusal> refusal() {
    return Optional.ofNullable(refusal);
  }
}
