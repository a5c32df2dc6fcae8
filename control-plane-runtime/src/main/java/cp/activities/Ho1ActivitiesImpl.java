package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.ContractLoader;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.contracts.RenderedPrompt;
import cp.contracts.ToolSpec;
import cp.faults.FaultPoints;
import cp.gateway.Gateway;
import cp.gateway.GatewayException;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ContentBlock;
import cp.model.DegradedRequest;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.Message;
import cp.model.PreparedWorkOrder;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolDefinition;
import cp.model.ToolUse;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WoOutcome;
import cp.model.WoFinishRequest;
import cp.model.WorkOrder;
import cp.tools.ToolExecutor;
import cp.tools.ToolInvocation;
import cp.tools.ToolResult;
import cp.model.ContractIds;
import cp.model.WorkOrderIds;
import cp.observability.PlaneMetrics;
import cp.observability.Telemetry;
import io.opentelemetry.api.trace.Span;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * HO1's activities: prepare, one gateway round trip, one tool call, finish, and the degraded call.
 * A lean round trip also prepares (round 1) and finishes (the round that ends the work order)
 * itself, so a turn needs no local activity for either ({@link LlmRoundRequest}).
 *
 * <p>Every HO1m entry carries {@code tier=ho1}, {@code wo_id} and {@code session_id} and an
 * idempotency key from the activity's Temporal identity, so a retried activity writes nothing
 * twice. A retried round trip whose EXCHANGE was already recorded is answered from the ledger
 * by the gateway; a retried tool call whose TOOL_CALL was recorded returns the recorded result
 * without running the tool again.
 */
public final class Ho1ActivitiesImpl implements Ho1Activities {
  /** A tool result longer than this is cut (with a note) before it reaches the ledger and the model. */
  public static final int MAX_TOOL_RESULT_CHARS = 32_000;
  /** Sequence number of the degraded call's pseudo work order (WO-xxxxxxxx-0007-00). */
  static final int DEGRADED_WO_SEQ = 0;

  private final Catalog catalog;
  private final ContractLoader contracts;
  private final PromptRenderer renderer = new PromptRenderer();
  private final WorkOrderPreparation preparation;
  private final WorkOrderCompletion completion;
  private final Gateway gateway;
  private final Ledgers ledgers;
  private final ToolExecutor tools;
  private final String defaultModel;
  private final Clock clock;
  private final RetryBackoff providerBackoff;
  private final ActivityContextSource context;

  /** {@code providerBackoff}: when a retryable provider error is tried again, unless the provider said when. */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff) {
    this(catalog, gateway, ledgers, tools, defaultModel, clock, providerBackoff, ActivityContextSource.TEMPORAL);
  }

  /** As above, learning each call's activity identity from {@code context} (outside Temporal: the benchmark). */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff, ActivityContextSource context) {
    this.context = java.util.Objects.requireNonNull(context, "context");
    this.providerBackoff = providerBackoff;
    this.catalog = catalog;
    this.contracts = new ContractLoader(catalog);
    this.gateway = gateway;
    this.ledgers = ledgers;
    this.tools = tools;
    this.defaultModel = defaultModel;
    this.clock = clock;
    this.preparation = new WorkOrderPreparation(catalog, contracts, ledgers);
    this.completion = new WorkOrderCompletion(contracts, ledgers, clock);
  }

  // ------------------------------------------------------------------ prepare

  @Override
  public PreparedWorkOrder prepare(WorkOrder wo) {
    return preparation.prepare(wo, context.identity()).result();
  }

  // ------------------------------------------------------------------ LLM round

  @Override
  public LlmRoundResult llmRound(LlmRoundRequest r) {
    ActivityIdentity id = context.identity();
    String promptRef = r.promptRef();
    RenderedPrompt rendered = null;
    if (r.dispatched() != null) {
      WorkOrderPreparation.Prepared p = preparation.prepare(r.dispatched(), id);
      if (!p.result().ok()) {
        return new LlmRoundResult.Finished(finishLean(r, id, r.costBefore(), null, p.result().errorCode(),
            p.result().errorMessage()), Optional.empty(), null);
      }
      promptRef = p.result().promptRef();
      rendered = p.prompt();
    }
    PromptContract contract = contracts.load(r.contractId());
    AgentConfig agent = catalog.agent(r.agentClass());
    RenderedPrompt prompt = rendered != null ? rendered : Transcript.prompt(ledgers.ho1(), promptRef);
    List<Message> messages = Transcript.messages(ledgers, Message.user(prompt.user()), r.transcript());
    OfferedTools offered = new OfferedTools(agent, r.allowedTools());
    List<ToolDefinition> toolDefs = offered.definitions();
    McpToolLists.record(ledgers.ho1(), r.sessionId(), r.woId(), tools.listings(offered.ids()));
    PromptRequest request = request(contract, agent, r.woId(), r.sessionId(), prompt.system(), messages, toolDefs,
        r.maxTokens(), r.temperature(), r.tokenBudgetRemaining(), id);
    PromptResponse resp = send(request);
    if (resp.outcome() == RouteOutcome.REJECTED) {
      LlmRoundResult.Refused refused = rejected(resp);
      if (!r.lean()) {
        return refused;
      }
      return new LlmRoundResult.Finished(finishLean(r, id, r.costBefore(), null,
          WoErrorCode.ofRejection(refused.code()), refused.message()), Optional.empty(), null);
    }
    ObjectNode meta = ho1Meta(r.woId(), r.sessionId()).put("round", r.round())
        .put("contract_id", r.contractId())
        .put("input_tokens", resp.inputTokens()).put("output_tokens", resp.outputTokens())
        .put("model_id", resp.modelId()).put("provider_id", resp.providerId())
        .put("latency_ms", resp.latencyMs()).put("finish_reason", resp.finishReason())
        .put("exchange_entry_id", resp.exchangeEntryId()).put("replayed", resp.replayed());
    ledgers.ho1().write(LedgerEntry.builder(EventType.LLM_CALL.wire()).submissionId(r.woId()).decision("SUCCESS")
        .reason("round " + r.round() + " via " + resp.providerId()).metadata(meta)
        .idempotencyKey(id.activityKey(EventType.LLM_CALL.wire())).build());
    LlmRoundResult.Exchange exchange = exchange(resp);
    List<ToolUse> uses = offered.uses(resp.content());
    if (!uses.isEmpty()) {
      return new LlmRoundResult.ToolCalls(exchange, uses,
          r.dispatched() != null ? Optional.of(promptRef) : Optional.empty());
    }
    if (!r.lean()) {
      return new LlmRoundResult.Answered(exchange, resp.text());
    }
    WoCost after = r.costBefore().plus(exchange.woCost());
    return new LlmRoundResult.Finished(finishLean(r, id, after, resp.text(), null, null), Optional.of(exchange),
        resp.text());
  }

  /** A lean round's finish: the same step as {@link #finish}, inside the round that ended the work order. */
  private WoOutcome finishLean(LlmRoundRequest r, ActivityIdentity id, WoCost cost, String text, String code,
      String message) {
    return completion.finish(new WorkOrderCompletion.Closing(r.woId(), r.sessionId(), r.woType(), r.contractId(), cost,
        text, null, code, message), id);
  }

  private PromptRequest request(PromptContract contract, AgentConfig agent, String woId, String sessionId,
      String system, List<Message> messages, List<ToolDefinition> toolDefs, Integer maxTokens, Double temperature,
      Long budget, ActivityIdentity id) {
    var boundary = contract.boundary();
    return PromptRequest.builder()
        .contractId(contract.contractId()).promptPackId(contract.promptPackId())
        .agentId(agent.agentId()).agentClass(agent.agentClass()).frameworkId(agent.frameworkId())
        .workOrderId(woId).sessionId(sessionId).tier("ho1")
        .system(system).messages(messages).tools(toolDefs)
        .maxTokens(maxTokens != null ? Math.min(maxTokens, boundary.maxTokens()) : boundary.maxTokens())
        .temperature(temperature != null ? temperature : boundary.temperature())
        .provider(boundary.provider())
        .model(boundary.model() != null ? boundary.model() : defaultModel)
        .structuredOutput(contract.structuredOutput()).outputSchema(contract.outputSchema())
        .tokenBudgetRemaining(budget)
        .workflowId(id.workflowId()).runId(id.runId()).activityId(id.activityId()).attempt(id.attempt())
        .build();
  }

  private PromptResponse send(PromptRequest request) {
    return send(request, false);
  }

  /**
   * One governed round trip; a gateway failure becomes an ApplicationFailure that says whether
   * and when Temporal should retry. For the {@code lastResort} (degraded) call an open circuit is
   * final: the breaker already knows the provider is down, and waiting out its cooldown would
   * only delay the honest "temporarily unavailable" the user is owed.
   */
  private PromptResponse send(PromptRequest request, boolean lastResort) {
    try {
      return context.heartbeating(() -> gateway.route(request));
    } catch (GatewayException e) {
      boolean retry = e.retryable() && !(lastResort && e.code() == FailureCode.CIRCUIT_OPEN);
      ApplicationFailure.Builder f = ApplicationFailure.newBuilder().setType(e.errorCode())
          .setMessage(e.getMessage()).setNonRetryable(!retry);
      if (retry) {
        int attempt = request.attempt() == null ? 1 : request.attempt();
        f.setNextRetryDelay(e.retryAfter().orElseGet(() -> providerBackoff.after(attempt)));
      }
      throw f.build();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static LlmRoundResult.Refused rejected(PromptResponse resp) {
    if (FailureCode.INVALID_REQUEST.is(resp.errorCode())) {
      throw FailureCode.INVALID_REQUEST.failure("the gateway refused the request: " + resp.errorMessage());
    }
    return new LlmRoundResult.Refused(resp.errorCode(), resp.errorMessage(), resp.exchangeEntryId(), resp.modelId());
  }

  private static LlmRoundResult.Exchange exchange(PromptResponse resp) {
    return new LlmRoundResult.Exchange(resp.exchangeEntryId(), resp.inputTokens(), resp.outputTokens(), resp.cost(),
        resp.modelId(), resp.replayed(), resp.finishReason());
  }

  // ------------------------------------------------------------------ tool call

  @Override
  public ToolCallResult toolCall(ToolCallRequest r) {
    ActivityIdentity id = context.identity();
    String key = id.activityKey(EventType.TOOL_CALL.wire());
    LedgerStream ho1 = ledgers.ho1();
    Optional<String> done = ho1.idForKey(key);
    if (done.isPresent()) {
      LedgerEntry e = ho1.byId(done.get()).orElseThrow();
      return new ToolCallResult(e.entryId(), e.metaText("tool_use_id"), e.metaText("tool_id"), e.metaText("status"),
          e.metaText("error_code"));
    }
    ToolUse use = r.toolUse();
    long start = clock.millis();
    Span span = ActivitySpans.tool(r, use);
    try {
      ToolCallResult ran = runTool(r, use, key, start, callKey(r, id));
      ActivitySpans.toolDone(span, ran, ho1);
      Telemetry.current().metrics().toolCall(r.allowedTools().contains(use.name()) ? use.name() : PlaneMetrics.OTHER,
          ran.status());
      return ran;
    } finally {
      span.end();
    }
  }

  /**
   * The call's idempotency key, the same on every attempt of this activity: from the turn's
   * workflow, the work order, the round and the call's index. A request recorded before the index
   * was sent falls back to the activity id, which every attempt also shares.
   */
  static String callKey(ToolCallRequest r, ActivityIdentity id) {
    return r.callIndex() != null ? ToolInvocation.key(id.workflowId(), r.woId(), r.round(), r.callIndex())
        : ToolInvocation.key(id.workflowId(), r.woId(), r.round(), 0) + "/activity-" + id.activityId();
  }

  private ToolCallResult runTool(ToolCallRequest r, ToolUse use, String key, long start, String callKey) {
    LedgerStream ho1 = ledgers.ho1();
    ToolResult result;
    try {
      result = r.approval() != null && !r.approval().granted() ? notApproved(r.approval()) : context.heartbeating(() -> {
        FaultPoints.at(FaultPoints.TOOL_CALL);
        return tools.execute(new ToolInvocation(r.agentClass(), r.sessionId(), r.woId(), use.name(), use.input(),
            r.allowedTools(), callKey));
      });
    } catch (Exception e) {
      result = ToolResult.error("tool_failure", "tool " + use.name() + " failed: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }
    String content = result.content();
    if (content.length() > MAX_TOOL_RESULT_CHARS) {
      content = content.substring(0, MAX_TOOL_RESULT_CHARS) + "\n[... cut: the result had " + content.length()
          + " characters; the limit is " + MAX_TOOL_RESULT_CHARS + "]";
    }
    ObjectNode meta = ho1Meta(r.woId(), r.sessionId()).put("round", r.round()).put("tool_id", use.name())
        .put("origin", tools.originOf(use.name()))
        .put("tool_use_id", use.id()).put("status", result.status()).put("result", content)
        .put("result_chars", result.content().length())
        .put("duration_ms", clock.millis() - start);
    meta.set("arguments", use.input());
    meta.put("arguments_summary", ArgumentSummary.of(use.input()));
    if (r.approval() != null) {
      meta.put("approval_id", r.approval().approvalId()).put("approval", r.approval().decision());
    }
    if (result.errorCode() != null) {
      meta.put("error_code", result.errorCode());
    }
    String entryId = ho1.write(LedgerEntry.builder(EventType.TOOL_CALL.wire()).submissionId(r.woId())
        .decision(result.status().toUpperCase(java.util.Locale.ROOT))
        .reason(use.name() + " " + result.status() + (result.errorCode() == null ? "" : ": " + result.errorCode()))
        .metadata(meta).idempotencyKey(key).build());
    return new ToolCallResult(entryId, use.id(), use.name(), result.status(), result.errorCode());
  }

  /**
   * The tool_result of a call a person denied or nobody decided in time (issue 15): the tool did
   * not run, and the model reads the decision, who made it and why, so it can tell the user.
   */
  static ToolResult notApproved(cp.model.ApprovalResult a) {
    boolean timedOut = cp.model.ApprovalResult.TIMED_OUT.equals(a.decision());
    String why = a.reason() == null || a.reason().isBlank() ? "" : " (reason: " + a.reason() + ")";
    String text = a.tool() + " was not run: approval " + a.approvalId() + (timedOut
        ? " timed out: nobody decided within the approval timeout, and the policy denies on timeout" + why
        : " was denied by " + a.decidedBy() + why) + ". Tell the user; do not retry the call unless they ask.";
    return ToolResult.refused(timedOut ? cp.tools.ToolErrorCodes.APPROVAL_TIMED_OUT
        : cp.tools.ToolErrorCodes.APPROVAL_DENIED, text);
  }

  // ------------------------------------------------------------------ finish

  @Override
  public WorkOrder finish(WoFinishRequest f) {
    WorkOrder wo = f.workOrder();
    WoOutcome done = completion.finish(new WorkOrderCompletion.Closing(wo.woId(), wo.sessionId(), wo.woType(),
        wo.constraints().promptContractId(), wo.cost(), f.finalText(), f.toolResultRef(), f.failureCode(),
        f.failureMessage()),
        context.identity());
    return done.applyTo(wo);
  }

  // ------------------------------------------------------------------ degraded

  @Override
  public LlmRoundResult degradedCall(DegradedRequest r) {
    ActivityIdentity id = context.identity();
    PromptContract contract = contracts.load(ContractIds.DEGRADED);
    AgentConfig agent = catalog.agent(r.agentClass());
    ObjectNode input = Json.object().put("user_input", r.userMessage()).put("agent_class", r.agentClass());
    RenderedPrompt prompt = renderer.render(catalog.promptPack(contract.promptPackId()), input, agent);
    String woId = WorkOrderIds.workOrder(r.sessionId(), r.turn(), DEGRADED_WO_SEQ);
    PromptRequest request = request(contract, agent, woId, r.sessionId(), prompt.system(),
        List.of(Message.user(prompt.user())), List.of(), null, null, r.tokenBudgetRemaining(), id);
    PromptResponse resp = send(request, true);
    if (resp.outcome() == RouteOutcome.REJECTED) {
      return rejected(resp);
    }
    // The degraded contract offers no tools: its answer is the text.
    return new LlmRoundResult.Answered(exchange(resp), resp.text());
  }

  static ObjectNode ho1Meta(String woId, String sessionId) {
    return Json.object().put("tier", "ho1").put("wo_id", woId).put("session_id", sessionId);
  }
}
