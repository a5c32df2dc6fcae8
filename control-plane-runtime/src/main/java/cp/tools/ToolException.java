package cp.tools;

/**
 * A tool failed in a way it explains itself: the message is written for the model (what failed,
 * on which input, what to try) and reaches it as the tool_result. Any other exception a tool
 * throws is an internal error: the model reads only that one happened and the incident id the
 * worker logged it under, never its class or message (they can carry URLs, paths, SQL).
 */
public class ToolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ToolException(String message) {
    super(message);
  }

  public ToolException(String message, Throwable cause) {
    super(message, cause);
  }
}
