package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerKeys;
import cp.model.ContentBlock;
import cp.model.EventType;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import cp.model.ToolDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the HOT-ledger records of seed 004: one EXCHANGE per round trip (prompt, response,
 * tokens, identity) and a five-field PROMPT_REJECTED when nothing was sent.
 *
 * <p>Each record carries an idempotency key derived from the Temporal identity of the activity
 * that made the call. A successful exchange has one key per activity, so a retried activity
 * finds it and replays the response instead of paying for the call again; a failed attempt's
 * key includes the attempt number, so every failed round trip is recorded exactly once. A
 * second paid answer to the same round (an attempt on another worker, {@link DuplicateAnswers})
 * is recorded under its attempt's key too.
 */
final class ExchangeRecords {
  static final String EXCHANGE = EventType.EXCHANGE.wire();
  static final String PROMPT_REJECTED = EventType.PROMPT_REJECTED.wire();

  /** Of input_tokens, those read from the provider's prompt cache (present when any were). */
  static final String CACHE_READ_TOKENS = "cache_read_tokens";
  /** Of input_tokens, those written to the provider's prompt cache. */
  static final String CACHE_WRITE_TOKENS = "cache_write_tokens";
  /** The call's cost in US dollars from the usage the provider reported (issue 23); absent when unknown. */
  static final String COST_USD = "cost_usd";
  /** True when the model has no price, so the call's cost is not known. */
  static final String COST_UNKNOWN = "cost_unknown";
  /** The session's tenant ({@code default} when it has none). */
  static final String TENANT = "tenant";

  private ExchangeRecords() {}

  /**
   * {@code cost} (kept for the readers before issue 23) and {@code cost_usd}, both USD; a model with
   * no price records {@code cost_unknown} and a {@code cost} of 0.
   */
  private static void costFields(ObjectNode m, Optional<Double> cost) {
    m.put("cost", cost.orElse(0.0));
    if (cost.isPresent()) {
      m.put(COST_USD, cost.get());
    } else {
      m.put(COST_UNKNOWN, true);
    }
  }

  /** The canonical prompt: what was asked, as the provider saw it (tools by name). */
  static ObjectNode prompt(PromptRequest r) {
    ObjectNode p = Json.object();
    p.put("system", r.system());
    p.set("messages", Json.tree(r.messages()));
    ArrayNode tools = p.putArray("tools");
    for (ToolDefinition t : r.tools()) {
      tools.add(t.name());
    }
    return p;
  }

  static String contextHash(ObjectNode prompt) {
    return Json.sha256(Json.canonical(prompt));
  }

  /** Key of the one successful exchange an activity can have, or null outside Temporal. */
  static String successKey(PromptRequest r) {
    return r.workflowId() == null ? null
        : EXCHANGE + "/" + r.workflowId() + "/" + r.runId() + "/" + r.activityId();
  }

  /**
   * Key of the tenant reservation of one attempt (and fallback hop) of a call, or null outside
   * Temporal: attempts of one activity on different workers may all be sent and billed, so each
   * holds and settles its own, and one attempt's release never drops another's.
   */
  static String reservationKey(PromptRequest r) {
    return attemptKey(EXCHANGE, r);
  }

  static String attemptKey(String event, PromptRequest r) {
    // Issue 23: each model of a fallback chain tried in one attempt has a key of its own.
    String hop = r.hop() == null || r.hop() == 0 ? "" : "/hop-" + r.hop();
    return r.workflowId() == null ? null
        : event + "/" + r.workflowId() + "/" + r.runId() + "/" + r.activityId() + "/attempt-" + r.attempt() + hop;
  }

  private static ObjectNode identity(PromptRequest r) {
    ObjectNode m = Json.object();
    m.put("agent_id", r.agentId());
    m.put("session_id", r.sessionId());
    m.put(LedgerKeys.WO_ID, r.workOrderId());
    m.put("tier", r.tier());
    m.put("contract_id", r.contractId());
    m.put("framework_id", r.frameworkId());
    // Issue 23: whose spend it is, for cpctl spend by tenant (the agent class is SESSION_START's).
    m.put(TENANT, cp.model.TenantId.orDefault(r.tenant()));
    return m;
  }

  private static void temporal(ObjectNode m, PromptRequest r) {
    if (r.workflowId() != null) {
      m.put("workflow_id", r.workflowId());
      m.put("run_id", r.runId());
      m.put("activity_id", r.activityId());
      if (r.attempt() != null) {
        m.put("attempt", r.attempt());
      }
    }
  }

  static LedgerEntry success(PromptRequest r, ObjectNode prompt, String contextHash, String providerId,
      ProviderReply reply, boolean hasToolUse, long latencyMs, Optional<Double> cost, Boolean outputValid,
      List<String> outputErrors) {
    ObjectNode m = identity(r);
    m.set("prompt", prompt);
    m.put("response", ContentBlock.joinText(reply.content()));
    if (hasToolUse) {
      m.set("response_blocks", Json.tree(reply.content()));
    }
    m.put("outcome", "success");
    m.put("input_tokens", reply.inputTokens());
    m.put("output_tokens", reply.outputTokens());
    m.put("context_hash", contextHash);
    m.put("model_id", reply.modelId());
    m.put("provider_id", providerId);
    m.put("finish_reason", reply.finishReason());
    m.put("latency_ms", latencyMs);
    if (reply.cacheReadTokens() > 0 || reply.cacheWriteTokens() > 0) {
      m.put(CACHE_READ_TOKENS, reply.cacheReadTokens());
      m.put(CACHE_WRITE_TOKENS, reply.cacheWriteTokens());
    }
    costFields(m, cost);
    if (outputValid != null) {
      m.put("output_valid", outputValid);
      if (!outputErrors.isEmpty()) {
        m.set("output_errors", Json.tree(outputErrors));
      }
    }
    temporal(m, r);
    return LedgerEntry.builder(EXCHANGE).submissionId(r.contractId()).decision("SUCCESS")
        .reason("exchange completed").metadata(m).idempotencyKey(successKey(r)).build();
  }

  /** A failed round trip; {@code retryAfter} is the delay the provider asked for, or null. */
  static LedgerEntry error(PromptRequest r, ObjectNode prompt, String contextHash, String providerId,
      String modelId, String errorCode, String errorMessage, int httpStatus, boolean timeout, long latencyMs,
      Duration retryAfter) {
    return error(r, prompt, contextHash, providerId, modelId, errorCode, errorMessage, httpStatus, timeout, latencyMs,
        retryAfter, Optional.empty());
  }

  /**
   * A failed round trip the provider billed all the same ({@code unread}: a reply over the size limit):
   * its tokens and cost are the call's reservation, marked {@code cost_estimated} with the reason.
   */
  static LedgerEntry error(PromptRequest r, ObjectNode prompt, String contextHash, String providerId,
      String modelId, String errorCode, String errorMessage, int httpStatus, boolean timeout, long latencyMs,
      Duration retryAfter, Optional<UnreadReply> unread) {
    ObjectNode m = identity(r);
    m.set("prompt", prompt);
    m.put("response", "");
    m.put("outcome", timeout ? "timeout" : "error");
    m.put("error_code", errorCode);
    m.put("error_message", errorMessage);
    if (httpStatus > 0) {
      m.put("http_status", httpStatus);
    }
    if (retryAfter != null) {
      m.put("retry_after_ms", retryAfter.toMillis());
    }
    m.put("input_tokens", unread.map(UnreadReply::inputTokens).orElse(0L));
    m.put("output_tokens", unread.map(UnreadReply::outputTokens).orElse(0L));
    m.put("context_hash", contextHash);
    m.put("model_id", modelId);
    m.put("provider_id", providerId);
    m.put("latency_ms", latencyMs);
    costFields(m, unread.isPresent() ? unread.get().costUsd() : Optional.of(0.0));
    if (unread.isPresent()) {
      m.put(UnreadReply.COST_ESTIMATED, true);
      m.put(UnreadReply.COST_BASIS, UnreadReply.BASIS);
    }
    temporal(m, r);
    return LedgerEntry.builder(EXCHANGE).submissionId(r.contractId()).decision(timeout ? "TIMEOUT" : "ERROR")
        .reason(errorCode + ": " + errorMessage).metadata(m).idempotencyKey(attemptKey(EXCHANGE, r)).build();
  }

  static LedgerEntry rejected(PromptRequest r, String errorCode, String errorMessage) {
    ObjectNode m = Json.object();
    m.put("agent_id", r.agentId());
    m.put("session_id", r.sessionId());
    m.put("contract_id", r.contractId());
    m.put("error_code", errorCode);
    m.put("error_message", errorMessage);
    return LedgerEntry.builder(PROMPT_REJECTED).submissionId(r.contractId()).decision("REJECTED")
        .reason(errorCode + ": " + errorMessage).metadata(m).idempotencyKey(attemptKey(PROMPT_REJECTED, r)).build();
  }

  /**
   * Rebuilds the response a completed exchange returned, for a retried activity.
   *
   * @param budgetBefore the request's token budget before the call (null: none), from which
   *     the original response's budget_remaining is recomputed
   */
  static PromptResponse replay(LedgerEntry e, Long budgetBefore) {
    JsonNode blocks = e.meta("response_blocks");
    List<ContentBlock> content = new ArrayList<>();
    if (blocks != null && blocks.isArray()) {
      for (JsonNode b : blocks) {
        content.add(Json.convert(b, ContentBlock.class));
      }
    } else {
      String text = e.metaText("response");
      content.add(ContentBlock.text(text == null ? "" : text));
    }
    JsonNode valid = e.meta("output_valid");
    List<String> errors = new ArrayList<>();
    JsonNode errs = e.meta("output_errors");
    if (errs != null) {
      errs.forEach(x -> errors.add(x.asText()));
    }
    TornAttempt torn = TornAttempt.recordedIn(e);
    long in = longMeta(e, "input_tokens") + torn.inputTokens();
    long out = longMeta(e, "output_tokens") + torn.outputTokens();
    Long budgetLeft = budgetBefore == null ? null : budgetBefore - in - out;
    JsonNode cost = e.meta("cost");
    return new PromptResponse(RouteOutcome.SUCCESS, content, in, out, e.metaText("model_id"), e.metaText("provider_id"),
        e.metaText("finish_reason"), longMeta(e, "latency_ms"), e.timestamp(), e.entryId(),
        e.metaText("context_hash"), valid == null ? null : valid.asBoolean(), errors, null, null, budgetLeft, true,
        (cost == null ? 0.0 : cost.asDouble()) + torn.cost(), e.meta(COST_UNKNOWN) != null
        && e.meta(COST_UNKNOWN).asBoolean());
  }

  /**
   * An earlier attempt of the same call whose EXCHANGE line tore ({@link cp.ledger.TornTail}): it was
   * answered and billed, so its tokens and cost count with the call that repeats it (issue 20).
   */
  record TornAttempt(String entryId, long inputTokens, long outputTokens, double cost) {
    static final TornAttempt NONE = new TornAttempt(null, 0, 0, 0);
    /** The EXCHANGE metadata field naming the torn attempt a call repeats. */
    static final String FIELD = "torn_attempt";

    static TornAttempt of(Optional<LedgerEntry> recovered) {
      return recovered.map(t -> new TornAttempt(t.entryId(), (long) t.metaNumber(LedgerKeys.INPUT_TOKENS),
          (long) t.metaNumber(LedgerKeys.OUTPUT_TOKENS), t.metaNumber(LedgerKeys.COST))).orElse(NONE);
    }

    static TornAttempt recordedIn(LedgerEntry exchange) {
      JsonNode t = exchange.meta(FIELD);
      return t == null ? NONE : new TornAttempt(t.path("entry_id").asText(null), t.path("input_tokens").asLong(),
          t.path("output_tokens").asLong(), t.path("cost").asDouble());
    }

    /** {@code exchange} naming this attempt in its metadata (unchanged when there is none). */
    LedgerEntry recordIn(LedgerEntry exchange) {
      if (entryId == null) {
        return exchange;
      }
      ObjectNode m = exchange.metadata();
      m.set(FIELD, Json.object().put("entry_id", entryId).put("input_tokens", inputTokens)
          .put("output_tokens", outputTokens).put("cost", cost));
      return exchange.toBuilder().metadata(m).build();
    }
  }

  private static long longMeta(LedgerEntry e, String f) {
    JsonNode v = e.meta(f);
    return v == null ? 0 : v.asLong();
  }
}
