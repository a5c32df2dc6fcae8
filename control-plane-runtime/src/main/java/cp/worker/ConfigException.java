package cp.worker;

/** The configuration (environment, files, plane root) is unusable; the message names what and how to fix it. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String variable;

  public ConfigException(String variable, String message) {
    super(message);
    this.variable = variable;
  }

  public ConfigException(String variable, String message, Throwable cause) {
    super(message, cause);
    this.variable = variable;
  }

  /** The environment variable or file at fault, when there is one. */
  public String variable() {
    return variable;
  }
}
