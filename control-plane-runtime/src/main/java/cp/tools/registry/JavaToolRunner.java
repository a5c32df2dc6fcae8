package cp.tools.registry;

import com.fasterxml.jackson.databind.JsonNode;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import cp.tools.spi.ToolCallContext;
import cp.tools.spi.ToolCallResult;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Java tool calls and turns every outcome into a {@link ToolResult} the model reads: the
 * tool's text (bounded), its error ({@code tool_error}), a timeout ({@code tool_timeout}) or an
 * exception ({@code tool_failure}, the message's first line, never a stack trace; the stack goes
 * to the worker log).
 *
 * <p>A call runs on a thread of its own so that a tool that hangs is abandoned after its timeout
 * (it is interrupted; Java cannot stop a thread that ignores that). Thread-safe; close it with the worker.
 */
public final class JavaToolRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JavaToolRunner.class);

  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "cp-java-tool");
    t.setDaemon(true);
    return t;
  });

  /** Runs one call of {@code tool}, waiting at most {@code timeout}. */
  public ToolResult run(JavaTool tool, JsonNode args, ToolCallContext ctx, Duration timeout) {
    Objects.requireNonNull(ctx, "ctx");
    Future<ToolCallResult> call = threads.submit(() -> tool.binding().call().call(args, ctx));
    ToolCallResult result;
    try {
      result = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      return ToolResult.error(ToolErrorCodes.TOOL_TIMEOUT, tool.name() + " did not answer within "
          + timeout.toMillis() + " ms and was abandoned; it may still finish its work");
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, tool.name() + " was interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      LOG.warn("java tool {} ({}) failed in session {}", tool.name(), tool.source(), ctx.sessionId(), cause);
      String what = ToolOutput.message(cause.getMessage());
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, tool.name() + " failed: " + cause.getClass().getSimpleName()
          + (what.isEmpty() ? "" : ": " + what));
    }
    if (result == null) {
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, tool.name() + " failed: it returned no result");
    }
    return result.isError() ? ToolResult.error(ToolErrorCodes.TOOL_ERROR, ToolOutput.bounded(result.text()))
        : ToolResult.ok(ToolOutput.bounded(result.text()));
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}
