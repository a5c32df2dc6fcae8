package cp.gateway.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.ProviderSettings;
import cp.gateway.SendableRequest;
import cp.gateway.http.HttpReply;
import cp.gateway.http.ProviderHttpClient;
import cp.model.Json;
import cp.model.PromptRequest;
import java.time.Clock;
import java.util.Objects;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp server) as an {@link LlmProvider}.
 *
 * <p>One non-streaming request per call, never retried here. The key, when set, travels only
 * in the {@code Authorization: Bearer} header; local servers usually need none, and then no
 * such header is sent.
 *
 * <p>Base URL rule: a server root with no path ({@code http://localhost:11434}) gets
 * {@code /v1/chat/completions}; any other base is taken as the API root, as the OpenAI SDKs take
 * it ({@code https://api.openai.com/v1}), and gets {@code /chat/completions}; a base that already
 * ends in {@code /chat/completions} is used as it is. {@link #endpoint()} shows the result.
 */
public final class OpenAiProvider implements LlmProvider {
  public static final String ID = "openai";
  static final String AUTHORIZATION = "authorization";
  static final String BEARER = "Bearer ";

  private final ProviderSettings settings;
  private final HttpUrl endpoint;
  private final ProviderHttpClient http;
  private final OpenAiReplyMapper replies;
  private final OpenAiErrorMapper errors;

  public OpenAiProvider(ProviderSettings settings) {
    this(settings, Clock.systemUTC());
  }

  /** {@code clock} turns an HTTP-date {@code retry-after} into a delay. */
  public OpenAiProvider(ProviderSettings settings, Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.endpoint = OpenAiEndpoint.chatCompletions(settings.baseUrl());
    this.http = new ProviderHttpClient(ID, settings);
    this.replies = new OpenAiReplyMapper(settings.apiKey());
    this.errors = new OpenAiErrorMapper(settings.apiKey(), Objects.requireNonNull(clock, "clock"));
  }

  @Override
  public String id() {
    return ID;
  }

  /** The resolved chat-completions URL this provider posts to. */
  public HttpUrl endpoint() {
    return endpoint;
  }

  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    SendableRequest.check(ID, request);
    String model = SendableRequest.model(request, settings);
    HttpReply reply = http.postJson(endpoint, headers(), body(request, model));
    if (!reply.isSuccess()) {
      throw errors.toException(reply);
    }
    return replies.toReply(reply, request, model);
  }

  private Headers headers() {
    Headers.Builder headers = new Headers.Builder();
    if (settings.apiKey().isPresent()) {
      headers.add(AUTHORIZATION, BEARER + settings.apiKey().reveal());
    }
    return headers.build();
  }

  private static byte[] body(PromptRequest request, String model) throws ProviderException {
    try {
      return Json.MAPPER.writeValueAsBytes(OpenAiRequestMapper.toWire(request, model));
    } catch (JsonProcessingException e) {
      throw ProviderException.builder(ID, ProviderErrorKind.BAD_REQUEST)
          .message("not sent: request could not be serialized: " + e.getOriginalMessage())
          .build();
    }
  }

  @Override
  public String toString() {
    return "OpenAiProvider[" + endpoint.host() + ", model " + settings.defaultModel() + "]";
  }
}
