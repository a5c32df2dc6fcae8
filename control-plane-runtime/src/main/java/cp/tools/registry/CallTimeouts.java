package cp.tools.registry;

import cp.contracts.ToolSpec;
import cp.tools.ToolContext;
import java.time.Duration;
import java.util.Objects;

/** How long one call of a Java or MCP tool may run: the calling agent's {@code timeout_seconds} for it, else a default. */
public final class CallTimeouts {
  private CallTimeouts() {}

  /** The bound of a call of {@code tool} made by {@code ctx}'s agent. */
  public static Duration of(ToolContext ctx, String tool, Duration fallback) {
    Objects.requireNonNull(fallback, "fallback");
    return ctx.agent().tool(tool).map(ToolSpec::timeoutSeconds).map(Duration::ofSeconds).orElse(fallback);
  }
}
