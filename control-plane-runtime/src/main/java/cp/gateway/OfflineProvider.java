package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.gateway.offline.Classification;
import cp.gateway.offline.ExplicitToolCalls;
import cp.gateway.offline.LengthLimit;
import cp.gateway.offline.OfflineInput;
import cp.gateway.offline.ReplyComposer;
import cp.gateway.offline.ReplyComposer.Context;
import cp.gateway.offline.SchemaSkeleton;
import cp.gateway.offline.SpeechActRules;
import cp.gateway.offline.ToolCall;
import cp.gateway.offline.ToolRounds;
import cp.gateway.offline.ToolTriggerRules;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The deterministic, rule-based provider that lets the whole pipeline run without an API key.
 *
 * <p>It reads the work order's input context (JSON between the last {@code <input>} and
 * {@code </input>} tags of the first user message, see {@link OfflineInput}) and answers by
 * contract family:
 * <ul>
 *   <li>{@code PRC-CLASSIFY-*}: {@code {"speech_act", "ambiguity", "intent", "needs_tools"}}
 *       from {@link SpeechActRules}.
 *   <li>{@code PRC-SYNTHESIZE-*}: a tool_use for each {@code call <tool> {json}} in the user's
 *       words ({@link ExplicitToolCalls}: any offered tool, arguments checked against its schema;
 *       a form that does not parse or fit is answered with text saying why), else for each tool
 *       the words ask for in plain phrases ({@link ToolTriggerRules}), when it is offered and has
 *       no result yet; once results are in
 *       the conversation, {@code {"response_text"}} summarising them; otherwise
 *       {@code {"response_text"}} built from the classification in {@code prior_results} and
 *       the {@code assembled_context}, kept within {@code acceptance_criteria.max_response_chars}.
 *   <li>{@code PRC-EXECUTE-*}: {@code {"result"}}.
 *   <li>{@code PRC-DEGRADED-*}: plain text that says the plane is in reduced mode.
 *   <li>{@code PRC-JUDGE-*}: {@code {"pass", "reason"}} by a fixed rule ({@link cp.gateway.offline.OfflineJudge}).
 *   <li>anything else: the skeleton of the contract's output schema ({@link SchemaSkeleton}),
 *       or plain text when there is none.
 * </ul>
 * JSON replies also get any further required property their output schema names.
 *
 * <p>It is pure and stateless, so thread-safe: no network, clock or randomness, and the same
 * request always yields the same reply, including tool_use ids (hashed from the request). It
 * never claims to be a real model:
 * the model id is {@value #MODEL_ID} and synthesized text ends with
 * {@value ReplyComposer#OFFLINE_MARKER}. Token counts are {@link TokenEstimate estimates}; when
 * the estimated output exceeds {@code maxTokens} (a positive value) the reply is cut, JSON
 * inside its longest string so it stays valid, and the finish reason is {@code length}.
 * tool_use replies are never cut: their arguments are a few dozen characters.
 */
public final class OfflineProvider implements LlmProvider {
  public static final String ID = "offline";
  public static final String MODEL_ID = "offline-rules-1";

  public static final String CLASSIFY_PREFIX = "PRC-CLASSIFY-";
  public static final String SYNTHESIZE_PREFIX = "PRC-SYNTHESIZE-";
  public static final String EXECUTE_PREFIX = "PRC-EXECUTE-";
  public static final String DEGRADED_PREFIX = "PRC-DEGRADED-";
  /** Issue 25: an eval case's judge ({@link cp.gateway.offline.OfflineJudge}). */
  public static final String JUDGE_PREFIX = "PRC-JUDGE-";

  /** Prefix of generated tool_use ids, so a ledger reader sees at once who made the call. */
  public static final String TOOL_USE_ID_PREFIX = "toolu_offline_";
  /** 64 bits of the request hash: unique within any conversation, short in a ledger line. */
  static final int TOOL_USE_ID_HEX_CHARS = 16;
  /** The largest piece a streamed offline reply comes in: a few words, like a model's deltas. */
  static final int STREAM_CHUNK_CHARS = 24;

  private static final Set<String> SPEECH_ACTS = Set.of(SpeechActRules.GREETING, SpeechActRules.REENTRY_GREETING,
      SpeechActRules.FAREWELL, SpeechActRules.QUESTION, SpeechActRules.COMMAND);

  /** A reply before accounting: tool uses, a JSON object, or plain text (exactly one is set). */
  private record Draft(List<ContentBlock> toolUses, ObjectNode json, String plain) {
    static Draft tools(List<ContentBlock> uses) { return new Draft(uses, null, null); }
    static Draft json(ObjectNode json) { return new Draft(List.of(), json, null); }
    static Draft plain(String text) { return new Draft(List.of(), null, text); }
  }

  /** Checks explicit calls' arguments against the offered tool's schema. */
  private final ArgumentValidator arguments;

  /** An offline model whose explicit tool calls are checked against their schemas by {@code arguments}. */
  public OfflineProvider(ArgumentValidator arguments) {
    this.arguments = java.util.Objects.requireNonNull(arguments, "arguments");
  }

  /**
   * An offline model that checks an explicit call's arguments only for being a JSON object
   * ({@link ArgumentValidator#NONE}); the tool dispatcher still checks them against the schema.
   */
  public OfflineProvider() {
    this(ArgumentValidator.NONE);
  }

  @Override
  public String id() {
    return ID;
  }

  /**
   * The same reply as {@link #send}, its text handed over in pieces of at most
   * {@link #STREAM_CHUNK_CHARS} characters, cut after a space where one is near, so chat streams
   * offline as it does with a model (issue 24). No delay between pieces: the offline model is
   * instant, and tests that need a slow stream use a streaming server.
   */
  @Override
  public ProviderReply stream(PromptRequest request, StreamSink sink) {
    ProviderReply reply = send(request);
    String text = ContentBlock.joinText(reply.content());
    for (int at = 0; at < text.length(); ) {
      int end = Math.min(text.length(), at + STREAM_CHUNK_CHARS);
      int space = text.lastIndexOf(' ', end - 1);
      if (end < text.length() && space >= at + STREAM_CHUNK_CHARS / 2) {
        end = space + 1;
      }
      if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
        end--; // never split a surrogate pair
      }
      sink.text(text.substring(at, end));
      at = end;
    }
    return reply;
  }

  @Override
  public java.util.Optional<String> defaultModel() {
    return java.util.Optional.of(MODEL_ID);
  }

  @Override
  public ProviderReply send(PromptRequest request) {
    OfflineInput input = OfflineInput.of(request);
    String contract = request.contractId();
    Draft draft;
    if (contract.startsWith(CLASSIFY_PREFIX)) {
      draft = Draft.json(SpeechActRules.classify(input.userInput()).toJson());
    } else if (contract.startsWith(SYNTHESIZE_PREFIX)) {
      draft = synthesize(request, input);
    } else if (contract.startsWith(EXECUTE_PREFIX)) {
      draft = Draft.json(Json.object().put("result",
          ReplyComposer.executeResult(input.userInput(), Context.of(input.get("assembled_context")))));
    } else if (contract.startsWith(DEGRADED_PREFIX)) {
      draft = Draft.plain(ReplyComposer.degraded(input.userInput()));
    } else if (contract.startsWith(JUDGE_PREFIX)) {
      draft = Draft.json(cp.gateway.offline.OfflineJudge.judge(input.get("rubric").asText(""),
          input.get("reply").asText("")));
    } else {
      draft = fromSchema(request.outputSchema(), input);
    }
    return account(request, draft);
  }

  private Draft synthesize(PromptRequest request, OfflineInput input) {
    List<String> offered = request.tools().stream().map(ToolDefinition::name).toList();
    ToolRounds rounds = ToolRounds.of(request);
    List<ContentBlock> uses = new ArrayList<>();
    ExplicitToolCalls.Parsed explicit = ExplicitToolCalls.Parsed.NONE;
    if (input.userInput().toLowerCase(java.util.Locale.ROOT).contains(ExplicitToolCalls.VERB)) {
      explicit = ExplicitToolCalls.parse(input.userInput(), request.tools(), arguments);
    }
    if (!explicit.problems().isEmpty() && rounds.isEmpty()) {
      return Draft.json(Json.object().put("response_text", ReplyComposer.cannotCall(explicit.problems())));
    }
    for (ToolCall call : explicit.none() ? ToolTriggerRules.match(input.userInput()) : explicit.calls()) {
      if (offered.contains(call.name()) && !rounds.hasResultFor(call.name())) {
        uses.add(ContentBlock.toolUse(toolUseId(request, call, uses.size()), call.name(), call.arguments()));
      }
    }
    if (!uses.isEmpty()) {
      return Draft.tools(uses);
    }
    String text;
    if (!rounds.isEmpty()) {
      text = ReplyComposer.fromToolResults(rounds.results());
    } else {
      Context context = Context.of(input.get("assembled_context"));
      boolean retry = isPresent(input.get("retry_feedback"));
      String speechAct = speechAct(input);
      text = switch (speechAct) {
        case SpeechActRules.GREETING -> ReplyComposer.greeting(false, offered, context);
        case SpeechActRules.REENTRY_GREETING -> ReplyComposer.greeting(true, offered, context);
        case SpeechActRules.FAREWELL -> ReplyComposer.farewell();
        default -> ReplyComposer.answer(speechAct, input.userInput(), offered, context, retry);
      };
    }
    int maxChars = input.get("acceptance_criteria").path("max_response_chars").asInt(0);
    if (maxChars > 0) {
      text = LengthLimit.cutKeepingSuffix(text, ReplyComposer.OFFLINE_MARKER, maxChars);
    }
    return Draft.json(Json.object().put("response_text", text));
  }

  /** The classify WO's speech act from {@code prior_results}; the rules' own when it is absent. */
  private static String speechAct(OfflineInput input) {
    JsonNode found = input.get("prior_results").findValue("speech_act");
    if (found != null && SPEECH_ACTS.contains(found.asText())) {
      return found.asText();
    }
    Classification own = SpeechActRules.classify(input.userInput());
    return own.speechAct();
  }

  private static Draft fromSchema(JsonNode schema, OfflineInput input) {
    if (schema == null || schema.isNull() || schema.isEmpty()) {
      return Draft.plain("The offline rule-based model has no rules for this contract. "
          + ReplyComposer.OFFLINE_MARKER);
    }
    JsonNode value = SchemaSkeleton.of(schema);
    return value instanceof ObjectNode object ? Draft.json(object) : Draft.plain(Json.write(value));
  }

  private ProviderReply account(PromptRequest request, Draft draft) {
    long inputTokens = Math.max(1, TokenEstimate.ofPrompt(request));
    if (!draft.toolUses().isEmpty()) {
      return new ProviderReply(draft.toolUses(), inputTokens, Math.max(1, TokenEstimate.ofContent(draft.toolUses())),
          MODEL_ID, ProviderReply.TOOL_USE);
    }
    int maxTokens = request.maxTokens();
    long maxChars = maxTokens > 0 ? (long) maxTokens * TokenEstimate.CHARS_PER_TOKEN : Long.MAX_VALUE;
    int limit = (int) Math.min(Integer.MAX_VALUE, maxChars);
    String full;
    String text;
    if (draft.json() != null) {
      ObjectNode json = draft.json().deepCopy();
      if (SchemaSkeleton.isObjectSchema(request.outputSchema())) {
        SchemaSkeleton.fillRequired(json, request.outputSchema());
      }
      full = Json.write(json);
      text = full.length() > limit ? LengthLimit.cutJson(json, limit) : full;
    } else {
      full = draft.plain();
      text = LengthLimit.cut(full, limit);
    }
    long outputTokens = Math.max(1, TokenEstimate.ofChars(text.length()));
    if (maxTokens > 0) {
      outputTokens = Math.min(outputTokens, maxTokens);
    }
    return new ProviderReply(List.of(ContentBlock.text(text)), inputTokens, outputTokens, MODEL_ID,
        text.equals(full) ? ProviderReply.STOP : ProviderReply.LENGTH);
  }

  /**
   * Deterministic: the same conversation, tool and position always give the same id. The
   * basis is spelled out field by field rather than left to Jackson, so the id depends only on
   * what the conversation says.
   */
  static String toolUseId(PromptRequest request, ToolCall call, int index) {
    StringBuilder basis = new StringBuilder(request.contractId());
    for (Message m : request.messages()) {
      basis.append('\n').append(m.role());
      for (ContentBlock b : m.content()) {
        basis.append('\u0000').append(b.type()).append('\u0000').append(b.text()).append('\u0000').append(b.id())
            .append('\u0000').append(b.name()).append('\u0000').append(b.input() == null ? "" : Json.canonical(b.input()))
            .append('\u0000').append(b.toolUseId()).append('\u0000').append(b.content()).append('\u0000').append(b.error());
      }
    }
    basis.append('\n').append(call.name()).append('\n').append(index);
    return TOOL_USE_ID_PREFIX + Json.sha256(basis.toString()).substring(0, TOOL_USE_ID_HEX_CHARS);
  }

  private static boolean isPresent(JsonNode node) {
    return node != null && !node.isMissingNode() && !node.isNull() && !(node.isTextual() && node.asText().isBlank());
  }
}
