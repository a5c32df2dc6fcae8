package cp.activities;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.ContractLoader;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.contracts.RenderedPrompt;
import cp.faults.FaultHook;
import cp.gateway.Gateway;
import cp.observability.Telemetry;
import cp.gateway.GatewayException;
import cp.gateway.LedgerOutage;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerKeys;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerUnreachableException;
import cp.ledger.Ledgers;
import cp.model.ContractIds;
import cp.model.DegradedRequest;
import cp.model.UsdBudgets;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.Message;
import cp.model.PreparedWorkOrder;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RootCause;
import cp.model.RouteOutcome;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolDefinition;
import cp.model.ToolUse;
import cp.model.WoCost;
import cp.model.WoErrorCode;
import cp.model.WoFinishRequest;
import cp.model.WoOutcome;
import cp.model.WorkOrder;
import cp.model.WorkOrderIds;
import cp.tools.ToolExecutor;
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
  public static final int MAX_TOOL_RESULT_CHARS = ToolCallStep.MAX_RESULT_CHARS;
  /** Sequence number of the degraded call's pseudo work order (WO-xxxxxxxx-0007-00). */
  static final int DEGRADED_WO_SEQ = 0;

  private final Catalog catalog;
  private final ContractLoader contracts;
  private final PromptRenderer renderer = new PromptRenderer();
  private final WorkOrderPreparation preparation;
  private final WorkOrderCompletion completion;
  private final Gateway gateway;
  private final Ledgers ledgers;
  private final ToolCallStep toolCalls;
  /** Asked which server lists the offered tools come from (MCP_TOOL_LIST). */
  private final ToolExecutor tools;
  private final String defaultModel;
  private final Clock clock;
  private final RetryBackoff providerBackoff;
  private final ActivityContextSource context;
  private final Telemetry telemetry;
  private final ReplySignals replies;
  /** HO2's plan entries of a work order whose first round writes them ({@code plan-in-round} 1). */
  private final Ho2Writes ho2Writes;

  /** {@code providerBackoff}: when a retryable provider error is tried again, unless the provider said when. */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff) {
    this(catalog, gateway, ledgers, tools, defaultModel, clock, providerBackoff, ActivityContextSource.TEMPORAL);
  }

  /** As above, learning each call's activity identity from {@code context} (outside Temporal: the benchmark). */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff, ActivityContextSource context) {
    this(catalog, gateway, ledgers, tools, defaultModel, clock, providerBackoff, context, Telemetry.NOOP, FaultHook.NONE);
  }

  /**
   * As above, reporting spans and metrics to {@code telemetry} and passing the {@code tool-call}
   * fault point to {@code faults} (a crash test's hook; {@link FaultHook#NONE} in production).
   */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff, ActivityContextSource context, Telemetry telemetry, FaultHook faults) {
    this(catalog, gateway, ledgers, tools, defaultModel, clock, providerBackoff, context, telemetry, faults,
        ReplySignals.NONE);
  }

  /** As above; a round asked to stream (issue 24) sends its reply's text to its turn through {@code replies}. */
  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock, RetryBackoff providerBackoff, ActivityContextSource context, Telemetry telemetry, FaultHook faults,
      ReplySignals replies) {
    this.replies = java.util.Objects.requireNonNull(replies, "replies");
    this.telemetry = java.util.Objects.requireNonNull(telemetry, "telemetry");
    this.context = java.util.Objects.requireNonNull(context, "context");
    this.providerBackoff = providerBackoff;
    this.catalog = catalog;
    this.contracts = new ContractLoader(catalog);
    this.gateway = gateway;
    this.ledgers = ledgers;
    this.toolCalls = new ToolCallStep(ledgers, tools, clock, telemetry, faults);
    this.tools = tools;
    this.defaultModel = defaultModel;
    this.clock = clock;
    this.preparation = new WorkOrderPreparation(catalog, contracts, ledgers);
    this.completion = new WorkOrderCompletion(contracts, ledgers, clock, telemetry);
    this.ho2Writes = new Ho2Writes(new KeyedWrites(ledgers, context));
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
    return whileAlive(id, () -> round(r, id));
  }

  /**
   * Runs an activity's body heartbeating throughout, not only while the provider works: a ledger
   * read or write that waits for an unreachable database must not look like a dead worker (the
   * service would time the attempt out and start another while this one still runs). A ledger
   * database that cannot be reached fails the attempt as {@code ledger_unavailable}, retried
   * after the provider backoff, so the call waits for the database instead of burning attempts.
   */
  private <T> T whileAlive(ActivityIdentity id, java.util.concurrent.Callable<T> body) {
    try {
      return context.heartbeating(body);
    } catch (ApplicationFailure f) {
      throw f;
    } catch (RuntimeException e) {
      Optional<LedgerUnreachableException> down = RootCause.first(e, LedgerUnreachableException.class);
      if (down.isPresent()) {
        throw ApplicationFailure.newBuilder().setType(FailureCode.LEDGER_UNAVAILABLE.wire())
            .setMessage(LedgerOutage.message(down.get()))
            .setNonRetryable(!FailureCode.LEDGER_UNAVAILABLE.retryable())
            .setNextRetryDelay(providerBackoff.after(id.attempt())).build();
      }
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private LlmRoundResult round(LlmRoundRequest r, ActivityIdentity id) {
    String promptRef;
    RenderedPrompt rendered = null;
    if (r.prompt() instanceof LlmRoundRequest.ToPrepare toPrepare) {
      if (toPrepare.recordPlan()) {
        ho2Writes.recordPlan(toPrepare.workOrder());
      }
      WorkOrderPreparation.Prepared p = preparation.prepare(toPrepare.workOrder(), id);
      if (!p.result().ok()) {
        return new LlmRoundResult.Finished(finishLean(r, id, costBefore(r), null, p.result().errorCode(),
            p.result().errorMessage()), Optional.empty(), null);
      }
      promptRef = p.result().promptRef();
      rendered = p.prompt();
    } else {
      promptRef = ((LlmRoundRequest.Prepared) r.prompt()).promptRef();
    }
    PromptContract contract = contracts.load(r.contractId());
    AgentConfig agent = catalog.agent(r.agentClass());
    RenderedPrompt prompt = rendered != null ? rendered : Transcript.prompt(ledgers.ho1(), promptRef);
    List<Message> messages = Transcript.messages(ledgers, Message.user(prompt.user()), r.transcript());
    OfferedTools offered = new OfferedTools(agent, r.allowedTools());
    List<ToolDefinition> toolDefs = offered.definitions();
    McpToolLists.record(ledgers.ho1(), r.sessionId(), r.woId(), tools.listings(offered.ids()));
    PromptRequest request = request(contract, agent, r.woId(), r.sessionId(), prompt.system(), messages, toolDefs,
        r.overrides(), r.tokenBudgetRemaining(), id).toBuilder().usdBudget(r.usdBudgetRemaining(), r.usdBudgetLevel())
        .tenant(r.tenant()).build();
    PromptResponse resp = streamed(r, request, contract, id);
    if (resp.outcome() == RouteOutcome.REJECTED) {
      LlmRoundResult.Refused refused = rejected(resp);
      if (!r.lean()) {
        return refused;
      }
      return new LlmRoundResult.Finished(finishLean(r, id, costBefore(r), null,
          WoErrorCode.ofRejection(refused.code()), refused.message(), refused.refusal()), Optional.empty(), null);
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
          r.prompt() instanceof LlmRoundRequest.ToPrepare ? Optional.of(promptRef) : Optional.empty());
    }
    if (!r.lean()) {
      return new LlmRoundResult.Answered(exchange, resp.text());
    }
    WoCost after = costBefore(r).plus(exchange.woCost());
    return new LlmRoundResult.Finished(finishLean(r, id, after, resp.text(), null, null), Optional.of(exchange),
        resp.text());
  }

  /**
   * The round trip, streaming the reply's text to the turn when the round asks to (issue 24) and
   * this worker can signal: the response is the same either way.
   */
  private PromptResponse streamed(LlmRoundRequest r, PromptRequest request, PromptContract contract,
      ActivityIdentity id) {
    if (r.stream().isEmpty() || replies == ReplySignals.NONE) {
      return send(request);
    }
    ReplyPublisher publisher = new ReplyPublisher(r.stream().get(), id.attempt(), contract.structuredOutput(),
        batch -> replies.send(id.workflowId(), batch), System::nanoTime);
    PromptResponse resp = send(request, false, publisher);
    if (resp.outcome() == RouteOutcome.SUCCESS) {
      publisher.finish(resp.text());
    }
    return resp;
  }

  /** A lean round's cost before it (it has a closing whenever it finishes). */
  private static WoCost costBefore(LlmRoundRequest r) {
    return r.closing().orElseThrow().costBefore();
  }

  /** A lean round's finish: the same step as {@link #finish}, inside the round that ended the work order. */
  private WoOutcome finishLean(LlmRoundRequest r, ActivityIdentity id, WoCost cost, String text, String code,
      String message) {
    return finishLean(r, id, cost, text, code, message, null);
  }

  /** As above, for a call refused by the budget {@code refusal}. */
  private WoOutcome finishLean(LlmRoundRequest r, ActivityIdentity id, WoCost cost, String text, String code,
      String message, cp.model.RefusalKind refusal) {
    return completion.finish(new WorkOrderCompletion.Closing(r.woId(), r.sessionId(),
        r.closing().orElseThrow().woType(), r.contractId(), cost,
        text, null, code, message, r.agentClass(), refusal), id);
  }

  private PromptRequest request(PromptContract contract, AgentConfig agent, String woId, String sessionId,
      String system, List<Message> messages, List<ToolDefinition> toolDefs, LlmRoundRequest.Overrides overrides,
      Long budget, ActivityIdentity id) {
    var boundary = contract.boundary();
    cp.contracts.AgentModel own = catalog.model(agent.agentClass());
    int bound = AgentModelChoice.maxTokens(boundary.maxTokens(), own);
    return PromptRequest.builder()
        .contractId(contract.contractId()).promptPackId(contract.promptPackId())
        .agentId(agent.agentId()).agentClass(agent.agentClass()).frameworkId(agent.frameworkId())
        .workOrderId(woId).sessionId(sessionId).tier("ho1")
        .system(AgentModelChoice.system(system, contract, own)).messages(messages).tools(toolDefs)
        .maxTokens(overrides.maxTokens().map(m -> Math.min(m, bound)).orElse(bound))
        .temperature(overrides.temperature().orElse(boundary.temperature()))
        .provider(AgentModelChoice.provider(boundary, own))
        .model(AgentModelChoice.model(boundary, own, defaultModel))
        .structuredOutput(contract.structuredOutput()).outputSchema(AgentModelChoice.outputSchema(contract, own))
        .tokenBudgetRemaining(budget).fallback(own.fallback())
        .workflowId(id.workflowId()).runId(id.runId()).activityId(id.activityId()).attempt(id.attempt())
        .build();
  }

  private PromptResponse send(PromptRequest request) {
    return send(request, false);
  }

  /**
   * One governed round trip; a gateway failure becomes an ApplicationFailure that says whether
   * and when Temporal should retry (an endpoint that cannot be reached only within its connect
   * budget). For the {@code lastResort} (degraded) call an open circuit or an unreachable endpoint
   * is final: the breaker or the failed turn already showed the provider is down, and waiting
   * would only delay the honest answer the user is owed.
   */
  private PromptResponse send(PromptRequest request, boolean lastResort) {
    return send(request, lastResort, null);
  }

  private PromptResponse send(PromptRequest request, boolean lastResort, cp.gateway.StreamSink stream) {
    try {
      return gateway.route(request, stream);
    } catch (GatewayException e) {
      int attempt = request.attempt() == null ? 1 : request.attempt();
      boolean retry = e.retryableAfter(attempt) && !(lastResort && (e.code() == FailureCode.CIRCUIT_OPEN
          || e.code() == FailureCode.PROVIDER_UNREACHABLE));
      ApplicationFailure.Builder f = ApplicationFailure.newBuilder().setType(e.errorCode())
          .setMessage(e.getMessage()).setNonRetryable(!retry);
      if (retry) {
        f.setNextRetryDelay(e.retryAfter().orElseGet(() -> providerBackoff.after(attempt)));
      }
      throw f.build();
    }
  }

  private static LlmRoundResult.Refused rejected(PromptResponse resp) {
    if (FailureCode.INVALID_REQUEST.is(resp.errorCode())) {
      throw FailureCode.INVALID_REQUEST.failure("the gateway refused the request: " + resp.errorMessage());
    }
    return new LlmRoundResult.Refused(resp.errorCode(), resp.errorMessage(), resp.exchangeEntryId(), resp.modelId(),
        resp.refusal());
  }

  private static LlmRoundResult.Exchange exchange(PromptResponse resp) {
    return new LlmRoundResult.Exchange(resp.exchangeEntryId(), resp.inputTokens(), resp.outputTokens(), resp.cost(),
        resp.modelId(), resp.replayed(), resp.finishReason(), resp.costUnknown() ? Boolean.TRUE : null);
  }

  // ------------------------------------------------------------------ tool call

  @Override
  public ToolCallResult toolCall(ToolCallRequest r) {
    ActivityIdentity id = context.identity();
    return whileAlive(id, () -> toolCalls.run(r, id));
  }

  // ------------------------------------------------------------------ finish

  @Override
  public WorkOrder finish(WoFinishRequest f) {
    WorkOrder wo = f.workOrder();
    WoOutcome done = completion.finish(new WorkOrderCompletion.Closing(wo.woId(), wo.sessionId(), wo.woType(),
        wo.constraints().promptContractId(), wo.cost(), f.finalText(), f.toolResultRef(), f.failureCode(),
        f.failureMessage(), wo.agentClass()),
        context.identity());
    return done.applyTo(wo);
  }

  // ------------------------------------------------------------------ degraded

  @Override
  public LlmRoundResult degradedCall(DegradedRequest r) {
    ActivityIdentity id = context.identity();
    return whileAlive(id, () -> degraded(r, id));
  }

  private LlmRoundResult degraded(DegradedRequest r, ActivityIdentity id) {
    PromptContract contract = contracts.load(ContractIds.DEGRADED);
    AgentConfig agent = catalog.agent(r.agentClass());
    ObjectNode input = Json.object().put("user_input", r.userMessage()).put("agent_class", r.agentClass());
    RenderedPrompt prompt = renderer.render(catalog.promptPack(contract.promptPackId()), input, agent);
    String woId = WorkOrderIds.workOrder(r.sessionId(), r.turn(), DEGRADED_WO_SEQ);
    PromptRequest request = request(contract, agent, woId, r.sessionId(), prompt.system(),
        List.of(Message.user(prompt.user())), List.of(), LlmRoundRequest.Overrides.NONE, r.tokenBudgetRemaining(),
        id).toBuilder().tenant(r.tenant()).usdBudget(r.usdBudgetRemaining(),
        r.usdBudgetRemaining() == null ? null : UsdBudgets.SESSION).build();
    PromptResponse resp = send(request, true);
    if (resp.outcome() == RouteOutcome.REJECTED) {
      return rejected(resp);
    }
    // The degraded contract offers no tools: its answer is the text.
    return new LlmRoundResult.Answered(exchange(resp), resp.text());
  }

  static ObjectNode ho1Meta(String woId, String sessionId) {
    return Json.object().put("tier", "ho1").put(LedgerKeys.WO_ID, woId).put("session_id", sessionId);
  }
}
