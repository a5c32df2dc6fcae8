package cp.tools.spi;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Runs one call of a tool. Kept apart from the {@link ToolDescriptor}, which is built once.
 *
 * <p>The worker has already checked the arguments against the descriptor's schema; it runs the
 * call on an activity thread, bounded by the tool's timeout, and may run several calls at once:
 * an implementation holds no per-call state. A retried call (after a worker crash, say) carries
 * the same {@link ToolCallContext#idempotencyKey()}.
 */
@FunctionalInterface
public interface ToolCall {
  /**
   * @param args a JSON object that satisfied the descriptor's argument schema
   * @param ctx who the call is made for; never part of {@code args}
   * @throws Exception a failure the model is told about as "the tool failed" with the message's
   *     first line (no stack trace); return {@link ToolCallResult#error} for failures it can act on
   */
  ToolCallResult call(JsonNode args, ToolCallContext ctx) throws Exception;
}
