package cp.gateway;

import cp.model.PromptRequest;

/**
 * One LLM backend behind the gateway: a single blocking round trip per call.
 *
 * <p>Implementations never retry on their own. Temporal's activity retry policy owns retries,
 * so a failed call throws a {@link ProviderException} whose {@link ProviderErrorKind} says
 * whether a retry could help and whose {@code retryAfter} carries the server's requested delay.
 * Implementations are thread-safe: one instance serves every activity of a worker.
 */
public interface LlmProvider {

  /** A stable short name recorded in EXCHANGE entries, e.g. {@code anthropic}. */
  String id();

  /**
   * The model a request that names none is sent to (issue 23: its price is the call's worst case);
   * empty when unknown.
   */
  default java.util.Optional<String> defaultModel() {
    return java.util.Optional.empty();
  }

  /** Sends {@code request} once and returns the model's reply, or throws a classified failure. */
  ProviderReply send(PromptRequest request) throws ProviderException;

  /**
   * Sends {@code request} once, handing the reply's text to {@code sink} as it arrives, and
   * returns the same reply {@link #send} would (content, usage, model, finish reason): the
   * return or the exception is the call's one terminal outcome. A provider that cannot stream
   * keeps this default: a one-shot call whose whole text is handed over at the end.
   */
  default ProviderReply stream(PromptRequest request, StreamSink sink) throws ProviderException {
    ProviderReply reply = send(request);
    String text = cp.model.ContentBlock.joinText(reply.content());
    if (!text.isEmpty()) {
      sink.text(text);
    }
    return reply;
  }
}
