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
import java.util.Objects;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * An LLM API reached with one JSON POST per call: checks the request, picks the model, posts
 * the wire request, and hands a non-2xx reply to the API's error mapping and a 2xx one to its
 * reply mapping. Subclasses say only what differs between APIs: the headers (where the key
 * goes), the wire request, and the two mappings. Never retried here; the key never leaves the
 * headers.
 */
public abstract class HttpLlmProvider implements LlmProvider {
  protected final ProviderSettings settings;
  private final String id;
  private final HttpUrl endpoint;
  private final ProviderHttpClient http;

  protected HttpLlmProvider(String id, ProviderSettings settings, HttpUrl endpoint) {
    this.id = Objects.requireNonNull(id, "id");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.http = new ProviderHttpClient(id, settings);
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
      throw failure(reply);
    }
    return reply(reply, request, model);
  }

  /** The request headers, the key among them when one is set. */
  protected abstract Headers headers();

  /** The API's request object for {@code request} and {@code model}, serialized as JSON. */
  protected abstract Object wireRequest(PromptRequest request, String model);

  /** The classified failure for a non-2xx reply. */
  protected abstract ProviderException failure(HttpReply reply);

  /** The reply of a 2xx response. */
  protected abstract ProviderReply reply(HttpReply reply, PromptRequest request, String model)
      throws ProviderException;

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
