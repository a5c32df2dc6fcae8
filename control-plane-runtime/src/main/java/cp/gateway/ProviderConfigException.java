package cp.gateway;

import java.util.Objects;

/**
 * The environment does not describe a usable provider; the message is one line naming the
 * variable and what to do, e.g. {@code ANTHROPIC_API_KEY is not set but CP_PROVIDER=anthropic:
 * export ANTHROPIC_API_KEY, or set CP_PROVIDER=offline}.
 *
 * <p>Unchecked: it is raised once at startup, where the only sensible handling is to print the
 * message and exit.
 */
public final class ProviderConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String variable;

  public ProviderConfigException(String variable, String message) {
    super(message);
    this.variable = Objects.requireNonNull(variable, "variable");
  }

  /** The environment variable at fault. */
  public String variable() {
    return variable;
  }
}
