package cp.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.ProviderSettings;
import cp.gateway.SendableRequest;
import cp.gateway.StreamSink;
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
  /**
   * Statuses with which a server refuses a request as malformed before running any model (400, 422):
   * a streaming request refused so, for its streaming ({@link #STREAM_WORD} in the error), is sent
   * once more one-shot, as a server that cannot stream needs. Any other 400 is the request's own
   * fault and fails as it does one-shot, without a second request.
   */
  static final java.util.Set<Integer> STREAM_REFUSED = java.util.Set.of(400, 422);
  /** What a refusal of the streaming itself names ("stream", "stream_options", "streaming"). */
  static final String STREAM_WORD = "stream";
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

  /**
   * Asks the API to stream (issue 24) and reads its events back into the reply a one-shot call
   * returns, through the same reply reader: the same content, usage and model, so the EXCHANGE
   * is the same. A server that answers with a whole JSON body instead (it cannot stream) is read
   * as a one-shot reply, its text handed over in one piece; an error status fails as it does
   * one-shot, and so does an error event mid-stream.
   */
  @Override
  public final ProviderReply stream(PromptRequest request, StreamSink sink) throws ProviderException {
    SendableRequest.check(id, request);
    String model = SendableRequest.model(request, settings);
    com.fasterxml.jackson.databind.node.ObjectNode wire = Json.MAPPER.valueToTree(wireRequest(request, model));
    askToStream(wire);
    long start = System.nanoTime();
    SseEvents events = streamEvents(sink, new StreamErrors() {
      @Override
      public ProviderException error(int status, String body) {
        return errors.toException(new HttpReply(status, Headers.EMPTY, body, 0));
      }

      @Override
      public ProviderException invalid(String why) {
        return ErrorText.invalidResponse(id, new HttpReply(200, Headers.EMPTY, "", 0), why, settings.apiKey());
      }
    });
    java.util.Optional<HttpReply> whole = http.postStreaming(endpoint, headers(), body(wire), events);
    if (whole.isPresent()) {
      if (STREAM_REFUSED.contains(whole.get().status()) && whole.get().body() != null
          && whole.get().body().toLowerCase(java.util.Locale.ROOT).contains(STREAM_WORD)) {
        // A server that refuses the streaming request (an older OpenAI-compatible server that does not
        // know "stream_options", say) ran no model on it: asked once more, one-shot.
        org.slf4j.LoggerFactory.getLogger(HttpLlmProvider.class).info("{} refused a streaming request with HTTP {};"
            + " sending it one-shot", id, whole.get().status());
        ProviderReply reply = send(request);
        String text = cp.model.ContentBlock.joinText(reply.content());
        if (!text.isEmpty()) {
          sink.text(text);
        }
        return reply;
      }
      if (!whole.get().isSuccess()) {
        throw errors.toException(whole.get());
      }
      ProviderReply reply = replies.read(whole.get(), request, model);
      String text = cp.model.ContentBlock.joinText(reply.content());
      if (!text.isEmpty()) {
        sink.text(text);
      }
      return reply;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return replies.read(new HttpReply(200, Headers.EMPTY, events.assembledBody(), millis), request, model);
  }

  /** Marks the wire request as one to stream: {@code "stream": true}; APIs that need more add it. */
  protected void askToStream(com.fasterxml.jackson.databind.node.ObjectNode wire) {
    wire.put("stream", true);
  }

  /** This API's reader of the event stream, handing text to {@code sink}. */
  protected abstract SseEvents streamEvents(StreamSink sink, StreamErrors errors);

  /** The request headers, the key among them when one is set. */
  protected abstract Headers headers();

  /** The API's request object for {@code request} and {@code model}, serialized as JSON. */
  protected abstract Object wireRequest(PromptRequest request, String model);

  private byte[] body(PromptRequest request, String model) throws ProviderException {
    return body(wireRequest(request, model));
  }

  private byte[] body(Object wire) throws ProviderException {
    try {
      return Json.MAPPER.writeValueAsBytes(wire);
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
