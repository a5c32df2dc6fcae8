package cp.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.ProviderSettings;
import cp.gateway.SendableRequest;
import cp.model.Json;
import cp.model.PromptRequest;
import java.time.Clock;
import java.util.Objects;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * An LLM API reached with one JSON POST per call: checks the request, picks the model, posts
 * the wire request, maps a non-2xx reply through the one error mapping every API shares
 * ({@link ErrorReply}) and a 2xx one through the API's reply reader. Subclasses say only what
 * differs between APIs: the headers (where the key goes), the wire request, where the error body
 * keeps its fields, and how a reply reads. Never retried here; the key never leaves the headers.
 */
public abstract class HttpLlmProvider implements LlmProvider {
  protected final ProviderSettings settings;
  private final String id;
  private final HttpUrl endpoint;
  private final ProviderHttpClient http;
  private final ErrorReply errors;
  private final ReplyReader replies;

  /** How an API's 2xx reply becomes a {@link ProviderReply}. */
  @FunctionalInterface
  public interface ReplyReader {
    ProviderReply read(HttpReply reply, PromptRequest request, String model) throws ProviderException;
  }

  /**
   * @param clock turns an HTTP-date {@code retry-after} into a delay
   * @param errorBody where this API's error body keeps its type, code and message
   */
  protected HttpLlmProvider(String id, ProviderSettings settings, HttpUrl endpoint, Clock clock,
      ErrorReply.BodyReader errorBody, ReplyReader replies) {
    this.id = Objects.requireNonNull(id, "id");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.http = new ProviderHttpClient(id, settings);
    this.errors = new ErrorReply(id, settings.apiKey(), clock, errorBody);
    this.replies = Objects.requireNonNull(replies, "replies");
  }

  @Override
  public java.util.Optional<String> defaultModel() {
    return java.util.Optional.ofNullable(settings.defaultModel());
  }

  @Override
  public final String id() {
    return id;
  }

  /** The resolved URL this provider posts to. */
  public final HttpUrl endpoint() {
    return endpoint;
  }

  @Override
  public final ProviderReply send(PromptRequest request) throws ProviderException {
    SendableRequest.check(id, request);
    String model = SendableRequest.model(request, settings);
    HttpReply reply = http.postJson(endpoint, headers(), body(request, model));
    if (!reply.isSuccess()) {
      throw errors.toException(reply);
    }
    return replies.read(reply, request, model);
  }

  /** The request headers, the key among them when one is set. */
  protected abstract Headers headers();

  /** The API's request object for {@code request} and {@code model}, serialized as JSON. */
  protected abstract Object wireRequest(PromptRequest request, String model);

  private byte[] body(PromptRequest request, String model) throws ProviderException {
    try {
      return Json.MAPPER.writeValueAsBytes(wireRequest(request, model));
    } catch (JsonProcessingException e) {
      throw ProviderException.builder(id, ProviderErrorKind.BAD_REQUEST)
          .message("not sent: request could not be serialized: " + e.getOriginalMessage())
          .build();
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + endpoint.host() + ", model " + settings.defaultModel() + "]";
  }
}
