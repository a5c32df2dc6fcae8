package cp.tools.registry;

import com.fasterxml.jackson.databind.JsonNode;
import cp.tools.Tool;
import cp.tools.ToolContext;
import cp.tools.ToolResult;
import java.time.Duration;
import java.util.Objects;

/**
 * A Java tool as the dispatcher runs it: after the dispatcher's checks (granted, allowed, plain
 * text, schema), the call runs on the {@link JavaToolRunner} with the SPI's context (session,
 * agent class, work order, idempotency key) and a timeout ({@link CallTimeouts}).
 */
public final class JavaToolCall implements Tool {
  private final JavaTool tool;
  private final JavaToolRunner runner;
  private final Duration defaultTimeout;

  public JavaToolCall(JavaTool tool, JavaToolRunner runner, Duration defaultTimeout) {
    this.tool = Objects.requireNonNull(tool, "tool");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.defaultTimeout = Objects.requireNonNull(defaultTimeout, "defaultTimeout");
  }

  @Override
  public String id() {
    return tool.name();
  }

  @Override
  public String origin() {
    return ToolOrigin.JAVA.wireName();
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    return runner.run(tool, args, ctx.callContext(), CallTimeouts.of(ctx, tool.name(), defaultTimeout));
  }
}
