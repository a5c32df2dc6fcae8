package cp.client;

/** A client call could not be done; the message is one line a user can act on. */
public class ClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Why: the input was refused, the session does not exist, the session has ended (a
   * {@link SessionEndedException}), or the service failed.
   */
  public enum Kind { REFUSED, NOT_FOUND, ENDED, UNAVAILABLE }

  private final Kind kind;

  public ClientException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public ClientException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
