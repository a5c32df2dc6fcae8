package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.LlmProvider;
import cp.gateway.ProviderErrorKind;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A fake LLM behind the real gateway: answers from a script, one step per call, and records
 * every request it receives so tests can assert on exactly what the provider saw.
 *
 * <p>A call with no step left fails as a non-retryable BAD_REQUEST, so an unexpected extra
 * round trip ends the work order with gateway_error instead of hanging the test.
 */
final class ScriptedProvider implements LlmProvider {
  static final String ID = "scripted";
  static final String MODEL = "scripted-model-1";

  /** One scripted answer; may throw a classified failure, or block. */
  @FunctionalInterface
  interface Step {
    ProviderReply answer(PromptRequest request) throws ProviderException;
  }

  final List<PromptRequest> requests = Collections.synchronizedList(new ArrayList<>());
  /** {@link System#nanoTime()} of each request, in the order of {@link #requests}. */
  final List<Long> sentAtNanos = Collections.synchronizedList(new ArrayList<>());
  private final ConcurrentLinkedDeque<Step> script = new ConcurrentLinkedDeque<>();

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ProviderReply send(PromptRequest request) throws ProviderException {
    synchronized (requests) {
      requests.add(request);
      sentAtNanos.add(System.nanoTime());
    }
    Step step = script.poll();
    if (step == null) {
      throw ProviderException.builder(ID, ProviderErrorKind.BAD_REQUEST)
          .message("the test script has no reply left for call " + requests.size()).build();
    }
    return step.answer(request);
  }

  ScriptedProvider then(Step step) {
    script.add(step);
    return this;
  }

  /** A text reply with the given usage. */
  ScriptedProvider thenText(String text, long inputTokens, long outputTokens) {
    return then(r -> text(text, inputTokens, outputTokens));
  }

  /** A reply asking for the given tool calls (blocks built with {@link #use}). */
  ScriptedProvider thenTools(long inputTokens, long outputTokens, ContentBlock... blocks) {
    return then(r -> new ProviderReply(List.of(blocks), inputTokens, outputTokens, MODEL, ProviderReply.TOOL_USE));
  }

  ScriptedProvider thenFail(ProviderErrorKind kind, String message) {
    return then(r -> {
      throw ProviderException.builder(ID, kind).httpStatus(kind.retryable() ? 503 : 401).message(message).build();
    });
  }

  static ProviderReply text(String text, long inputTokens, long outputTokens) {
    return new ProviderReply(List.of(ContentBlock.text(text)), inputTokens, outputTokens, MODEL, ProviderReply.STOP);
  }

  static ContentBlock use(String id, String tool, String argsJson) {
    JsonNode args = Json.parse(argsJson);
    return ContentBlock.toolUse(id, tool, args);
  }

  /**
   * The tool-loop round a request belongs to: round 1 sends the prompt alone, and every later
   * round adds one assistant message and one user message of tool results.
   */
  static int round(PromptRequest r) {
    return (r.messages().size() + 1) / 2;
  }

  long requestsInRound(int round) {
    synchronized (requests) {
      return requests.stream().filter(r -> round(r) == round).count();
    }
  }

  List<PromptRequest> snapshot() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }
}
