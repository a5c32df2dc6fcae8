package cp.tools;

import java.util.Objects;

/**
 * A tool asked for a path its agent may not use. The message names the path, the rule that
 * refused it and what the agent may use instead; it never quotes file contents.
 */
public final class PathRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final PathRefusal refusal;

  public PathRefusedException(PathRefusal refusal, String message) {
    super(message);
    this.refusal = Objects.requireNonNull(refusal, "refusal");
  }

  public PathRefusal refusal() {
    return refusal;
  }

  /** The stable error code, e.g. {@code path_symlink_escape}. */
  public String code() {
    return refusal.code();
  }
}
