package cp.gateway;
/** One LLM backend behind the gateway: a single blocking round trip, never retried by itself. */
public interface LlmProvider {
  String id();
  ProviderReply send(cp.model.PromptRequest request) throws ProviderException;
}
