package cp.gateway;
/** What a provider returned for one round trip; finishReason is stop, length or tool_use. */
public record ProviderReply(java.util.List<cp.model.ContentBlock> content, long inputTokens, long outputTokens, String modelId, String finishReason) {
  public ProviderReply { content = java.util.List.copyOf(content); java.util.Objects.requireNonNull(modelId, "modelId"); java.util.Objects.requireNonNull(finishReason, "finishReason"); }
}
