package cp.gateway.anthropic;

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
 * The Anthropic Messages API ({@code POST /v1/messages}) as an {@link LlmProvider}.
 *
 * <p>One non-streaming request per call, never retried here. The key travels only in the
 * {@code x-api-key} header; errors and logs never contain it.
 *
 * <p>Base URL rule: the API root without version ({@code https://api.anthropic.com}) gets
 * {@code /v1/messages}; a base already ending in {@code /v1} gets {@code /messages}; one ending in
 * {@code /v1/messages} is used as it is. {@link #endpoint()} shows the result.
 */
public final class AnthropicProvider implements LlmProvider {
  public static final String ID = "anthropic";
  static final String API_KEY_HEADER = "x-api-key";
  static final String VERSION_HEADER = "anthropic-version";

  private final ProviderSettings settings;
  private final HttpUrl endpoint;
  private final ProviderHttpClient http;
  private final AnthropicReplyMapper replies;
  private final AnthropicErrorMapper errors;

  public AnthropicProvider(ProviderSettings settings) {
    this(settings, Clock.systemUTC());
  }

  /** {@code clock} turns an HTTP-date {@code retry-after} into a delay. */
  public AnthropicProvider(ProviderSettings settings, Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.endpoint = AnthropicEndpoint.messages(settings.baseUrl());
    this.http = new ProviderHttpClient(ID, settings);
    this.replies = new AnthropicReplyMapper(settings.apiKey());
    this.errors = new AnthropicErrorMapper(settings.apiKey(), Objects.requireNonNull(clock, "clock"));
  }

  @Override
  public String id() {
    return ID;
  }

  /** The resolved {@code /v1/messages} URL this provider posts to. */
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
    Headers.Builder headers = new Headers.Builder().add(VERSION_HEADER, settings.anthropicVersion());
    if (settings.apiKey().isPresent()) {
      headers.add(API_KEY_HEADER, settings.apiKey().reveal());
    }
    return headers.build();
  }

  private static byte[] body(PromptRequest request, String model) throws ProviderException {
    try {
      return Json.MAPPER.writeValueAsBytes(AnthropicRequestMapper.toWire(request, model));
    } catch (JsonProcessingException e) {
      throw ProviderException.builder(ID, ProviderErrorKind.BAD_REQUEST)
          .message("not sent: request could not be serialized: " + e.getOriginalMessage())
          .build();
    }
  }

  @Override
  public String toString() {
    return "AnthropicProvider[" + endpoint.host() + ", model " + settings.defaultModel() + "]";
  }
}
