package cp.gateway.openai;

import cp.gateway.LlmProvider;
import cp.gateway.ProviderSettings;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.StreamSink;
import cp.gateway.http.HttpLlmProvider;
import cp.gateway.http.SseEvents;
import cp.gateway.http.StreamErrors;
import cp.model.PromptRequest;
import java.time.Clock;
import okhttp3.Headers;

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp server) as an {@link LlmProvider}.
 *
 * <p>One request per call, one-shot or streamed ({@link OpenAiStream}), never retried here. The key, when set, travels only
 * in the {@code Authorization: Bearer} header; local servers usually need none, and then no
 * such header is sent.
 *
 * <p>Base URL rule: a server root with no path ({@code http://localhost:11434}) gets
 * {@code /v1/chat/completions}; any other base is taken as the API root, as the OpenAI SDKs take
 * it ({@code https://api.openai.com/v1}), and gets {@code /chat/completions}; a base that already
 * ends in {@code /chat/completions} is used as it is. {@link #endpoint()} shows the result.
 */
public final class OpenAiProvider extends HttpLlmProvider {
  public static final String ID = "openai";
  static final String AUTHORIZATION = "authorization";
  static final String BEARER = "Bearer ";

  public OpenAiProvider(ProviderSettings settings) {
    this(settings, Clock.systemUTC());
  }

  /** {@code clock} turns an HTTP-date {@code retry-after} into a delay. */
  public OpenAiProvider(ProviderSettings settings, Clock clock) {
    super(ID, settings, OpenAiEndpoint.chatCompletions(settings.baseUrl()), clock, OpenAiErrorBody::read,
        new OpenAiReplyMapper(settings.apiKey())::toReply);
  }

  @Override
  protected Headers headers() {
    Headers.Builder headers = new Headers.Builder();
    if (settings.apiKey().isPresent()) {
      headers.add(AUTHORIZATION, BEARER + settings.apiKey().reveal());
    }
    return headers.build();
  }

  @Override
  protected SseEvents streamEvents(StreamSink sink, StreamErrors errors) {
    return new OpenAiStream(sink, errors);
  }

  /** Also asks for the usage chunk at the end, which a stream leaves out unless asked. */
  @Override
  protected void askToStream(ObjectNode wire) {
    super.askToStream(wire);
    wire.putObject("stream_options").put("include_usage", true);
  }

  @Override
  protected Object wireRequest(PromptRequest request, String model) {
    return OpenAiRequestMapper.toWire(request, model);
  }
}
