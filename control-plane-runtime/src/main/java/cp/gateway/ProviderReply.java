package cp.gateway;

import cp.model.ContentBlock;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider returned for one round trip, in provider-neutral form.
 *
 * @param content text and tool_use blocks, in the order the model produced them (may be empty)
 * @param inputTokens prompt tokens the provider billed
 * @param outputTokens completion tokens the provider billed
 * @param modelId the model that answered, as the provider names it
 * @param finishReason {@link #STOP}, {@link #LENGTH} or {@link #TOOL_USE}
 * @param usageEstimated true when the provider reported no usage and the token counts are a
 *     characters/4 estimate ({@link TokenEstimate}); budgets should treat them as approximate
 * @param responseId the provider's id of this response ({@code msg_…}, {@code chatcmpl-…}), or null
 *     when it gave none (span attribute {@code gen_ai.response.id})
 * @param cacheReadTokens of {@code inputTokens}, those read from the provider's prompt cache
 *     (priced at the model's cache-read price, issue 23)
 * @param cacheWriteTokens of {@code inputTokens}, those written to the provider's prompt cache
 */
public record ProviderReply(
    List<ContentBlock> content,
    long inputTokens,
    long outputTokens,
    String modelId,
    String finishReason,
    boolean usageEstimated,
    String responseId,
    long cacheReadTokens,
    long cacheWriteTokens) {

  /** The model ended its turn (or hit a stop sequence). */
  public static final String STOP = "stop";
  /** The model ran into max_tokens or its context window. */
  public static final String LENGTH = "length";
  /** The model wants tools run and their results sent back. */
  public static final String TOOL_USE = "tool_use";

  private static final Set<String> FINISH_REASONS = Set.of(STOP, LENGTH, TOOL_USE);

  public ProviderReply {
    content = List.copyOf(Objects.requireNonNull(content, "content"));
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(finishReason, "finishReason");
    if (!FINISH_REASONS.contains(finishReason)) {
      throw new IllegalArgumentException(
          "finishReason must be one of " + FINISH_REASONS + ", was '" + finishReason + "'");
    }
    if (cacheReadTokens < 0 || cacheWriteTokens < 0 || cacheReadTokens + cacheWriteTokens > inputTokens) {
      throw new IllegalArgumentException("cache tokens must be >= 0 and within the input tokens: input=" + inputTokens
          + " cache_read=" + cacheReadTokens + " cache_write=" + cacheWriteTokens);
    }
    if (inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException(
          "token counts must not be negative: input=" + inputTokens + " output=" + outputTokens);
    }
  }

  /** A reply without a response id. */
  public ProviderReply(List<ContentBlock> content, long inputTokens, long outputTokens, String modelId,
      String finishReason, boolean usageEstimated) {
    this(content, inputTokens, outputTokens, modelId, finishReason, usageEstimated, null, 0, 0);
  }

  /** A reply without cache tokens. */
  public ProviderReply(List<ContentBlock> content, long inputTokens, long outputTokens, String modelId,
      String finishReason, boolean usageEstimated, String responseId) {
    this(content, inputTokens, outputTokens, modelId, finishReason, usageEstimated, responseId, 0, 0);
  }

  /** The same reply with the provider's count of cached prompt tokens (both of {@code inputTokens}). */
  public ProviderReply withCache(long read, long write) {
    return new ProviderReply(content, inputTokens, outputTokens, modelId, finishReason, usageEstimated, responseId,
        read, write);
  }

  /** The same reply with the provider's response id. */
  public ProviderReply withResponseId(String id) {
    return new ProviderReply(content, inputTokens, outputTokens, modelId, finishReason, usageEstimated,
        id == null || id.isBlank() ? null : id, cacheReadTokens, cacheWriteTokens);
  }

  /** A reply whose token counts the provider reported. */
  public ProviderReply(
      List<ContentBlock> content, long inputTokens, long outputTokens, String modelId, String finishReason) {
    this(content, inputTokens, outputTokens, modelId, finishReason, false);
  }
}
