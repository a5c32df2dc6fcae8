package cp.gateway.anthropic;

import cp.gateway.LlmProvider;
import cp.gateway.ProviderSettings;
import cp.gateway.StreamSink;
import cp.gateway.http.HttpLlmProvider;
import cp.gateway.http.SseEvents;
import cp.gateway.http.StreamErrors;
import cp.model.PromptRequest;
import java.time.Clock;
import okhttp3.Headers;

/**
 * The Anthropic Messages API ({@code POST /v1/messages}) as an {@link LlmProvider}.
 *
 * <p>One request per call, one-shot or streamed ({@link AnthropicStream}), never retried here. The key travels only in the
 * {@code x-api-key} header; errors and logs never contain it.
 *
 * <p>Base URL rule: the API root without version ({@code https://api.anthropic.com}) gets
 * {@code /v1/messages}; a base already ending in {@code /v1} gets {@code /messages}; one ending in
 * {@code /v1/messages} is used as it is. {@link #endpoint()} shows the result.
 */
public final class AnthropicProvider extends HttpLlmProvider {
  public static final String ID = "anthropic";
  static final String API_KEY_HEADER = "x-api-key";
  static final String VERSION_HEADER = "anthropic-version";

  public AnthropicProvider(ProviderSettings settings) {
    this(settings, Clock.systemUTC());
  }

  /** {@code clock} turns an HTTP-date {@code retry-after} into a delay. */
  public AnthropicProvider(ProviderSettings settings, Clock clock) {
    super(ID, settings, AnthropicEndpoint.messages(settings.baseUrl()), clock, AnthropicErrorBody::read,
        new AnthropicReplyMapper(settings.apiKey())::toReply);
  }

  @Override
  protected Headers headers() {
    Headers.Builder headers = new Headers.Builder().add(VERSION_HEADER, settings.anthropicVersion());
    if (settings.apiKey().isPresent()) {
      headers.add(API_KEY_HEADER, settings.apiKey().reveal());
    }
    return headers.build();
  }

  @Override
  protected SseEvents streamEvents(StreamSink sink, StreamErrors errors) {
    return new AnthropicStream(sink, errors);
  }

  @Override
  protected Object wireRequest(PromptRequest request, String model) {
    return AnthropicRequestMapper.toWire(request, model);
  }
}
