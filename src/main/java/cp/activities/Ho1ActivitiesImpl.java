package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.ContractLoader;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.contracts.RenderedPrompt;
import cp.faults.FaultPoints;
import cp.gateway.Gateway;
import cp.gateway.GatewayException;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ContentBlock;
import cp.model.DegradedRequest;
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
import cp.model.WoErrorCode;
import cp.model.WoFinishRequest;
import cp.model.WorkOrder;
import cp.tools.ToolExecutor;
import cp.tools.ToolResult;
import cp.workflows.ContractIds;
import cp.workflows.WorkOrderIds;
import io.temporal.failure.ApplicationFailure;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * HO1's activities: prepare, one gateway round trip, one tool call, finish, and the degraded call.
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
  private final Gateway gateway;
  private final Ledgers ledgers;
  private final ToolExecutor tools;
  private final String defaultModel;
  private final Clock clock;

  public Ho1ActivitiesImpl(Catalog catalog, Gateway gateway, Ledgers ledgers, ToolExecutor tools, String defaultModel,
      Clock clock) {
    this.catalog = catalog;
    this.contracts = new ContractLoader(catalog);
    this.gateway = gateway;
    this.ledgers = ledgers;
    this.tools = tools;
    this.defaultModel = defaultModel;
    this.clock = clock;
  }

  // ------------------------------------------------------------------ prepare

  @Override
  public PreparedWorkOrder prepare(WorkOrder wo) {
    ActivityIdentity id = ActivityIdentity.current();
    String contractId = wo.constraints().promptContractId();
    ObjectNode meta = ho1Meta(wo.woId(), wo.sessionId()).put("wo_type", wo.woType().wireName())
        .put("contract_id", contractId);
    Optional<PromptContract> contract = catalog.findContract(contractId);
    String errorCode = null;
    String errorMessage = null;
    if (contract.isEmpty()) {
      errorCode = WoErrorCode.CONTRACT_NOT_FOUND;
      errorMessage = "contract " + contractId + " not found in contracts/ (known: "
          + String.join(", ", catalog.contracts().stream().map(PromptContract::contractId).sorted().toList()) + ")";
    } else {
      JsonNode input = expandInput(wo);
      List<String> problems = contracts.validateInput(contract.get(), input);
      if (!problems.isEmpty()) {
        errorCode = WoErrorCode.INPUT_SCHEMA_INVALID;
        errorMessage = "input_context does not match " + contractId + ": " + String.join("; ", problems);
      } else {
        AgentConfig agent = catalog.agent(wo.agentClass());
        RenderedPrompt prompt = renderer.render(catalog.promptPack(contract.get().promptPackId()), input, agent);
        meta.put("prompt_pack_id", contract.get().promptPackId());
        meta.putObject("prompt").put("system", prompt.system()).put("user", prompt.user());
      }
    }
    if (errorCode != null) {
      meta.put("error_code", errorCode).put("error_message", errorMessage);
    }
    String entryId = ledgers.ho1().write(LedgerEntry.builder("WO_EXECUTING").submissionId(wo.woId())
        .decision("EXECUTING").reason("dispatched -> executing under " + contractId).metadata(meta)
        .idempotencyKey(id.runKey("WO_EXECUTING/" + wo.woId())).build());
    return new PreparedWorkOrder(errorCode == null ? entryId : null, contractId, errorCode, errorMessage);
  }

  /** Resolves {@code assembled_context.context_ref} into the context text HO2's attention stored. */
  private JsonNode expandInput(WorkOrder wo) {
    JsonNode input = wo.inputContext();
    JsonNode assembled = input.get("assembled_context");
    if (assembled == null || !assembled.has("context_ref") || assembled.has("text")) {
      return input;
    }
    String ref = assembled.get("context_ref").asText();
    String text = ledgers.ho2(wo.agentClass()).byId(ref).map(e -> e.metaText("context")).orElse("");
    ObjectNode copy = input.deepCopy();
    ((ObjectNode) copy.get("assembled_context")).put("text", text == null ? "" : text);
    return copy;
  }

  // ------------------------------------------------------------------ LLM round

  @Override
  public LlmRoundResult llmRound(LlmRoundRequest r) {
    ActivityIdentity id = ActivityIdentity.current();
    PromptContract contract = contracts.load(r.contractId());
    AgentConfig agent = catalog.agent(r.agentClass());
    List<Message> messages = Transcript.messages(ledgers, r.promptRef(), r.transcript());
    List<ToolDefinition> toolDefs = agent.toolDefinitions().stream()
        .filter(t -> r.allowedTools().contains(t.name())).toList();
    PromptRequest request = request(contract, agent, r.woId(), r.sessionId(), Transcript.system(ledgers.ho1(),
        r.promptRef()), messages, toolDefs, r.maxTokens(), r.temperature(), r.tokenBudgetRemaining(), id);
    PromptResponse resp = send(request);
    if (resp.outcome() == RouteOutcome.REJECTED) {
      return rejected(resp);
    }
    ObjectNode meta = ho1Meta(r.woId(), r.sessionId()).put("round", r.round())
        .put("contract_id", r.contractId())
        .put("input_tokens", resp.inputTokens()).put("output_tokens", resp.outputTokens())
        .put("model_id", resp.modelId()).put("provider_id", resp.providerId())
        .put("latency_ms", resp.latencyMs()).put("finish_reason", resp.finishReason())
        .put("exchange_entry_id", resp.exchangeEntryId()).put("replayed", resp.replayed());
    ledgers.ho1().write(LedgerEntry.builder("LLM_CALL").submissionId(r.woId()).decision("SUCCESS")
        .reason("round " + r.round() + " via " + resp.providerId()).metadata(meta)
        .idempotencyKey(id.activityKey("LLM_CALL")).build());
    return toResult(resp);
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
      return Heartbeats.during(() -> gateway.route(request));
    } catch (GatewayException e) {
      boolean retry = e.retryable() && !(lastResort && Gateway.CIRCUIT_OPEN.equals(e.errorCode()));
      ApplicationFailure.Builder f = ApplicationFailure.newBuilder().setType(e.errorCode())
          .setMessage(e.getMessage()).setNonRetryable(!retry);
      if (retry) {
        e.retryAfter().ifPresent(f::setNextRetryDelay);
      }
      throw f.build();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static LlmRoundResult rejected(PromptResponse resp) {
    if (Gateway.INVALID_REQUEST.equals(resp.errorCode())) {
      throw ApplicationFailure.newNonRetryableFailure("the gateway refused the request: " + resp.errorMessage(),
          Gateway.INVALID_REQUEST);
    }
    return new LlmRoundResult(resp.exchangeEntryId(), "", List.of(), null, 0, 0, 0, resp.modelId(), false,
        resp.errorCode(), resp.errorMessage());
  }

  private static LlmRoundResult toResult(PromptResponse resp) {
    List<ToolUse> uses = resp.content().stream().filter(ContentBlock::isToolUse)
        .map(b -> new ToolUse(b.id(), b.name(), b.input())).toList();
    return new LlmRoundResult(resp.exchangeEntryId(), resp.text(), uses, resp.finishReason(), resp.inputTokens(),
        resp.outputTokens(), resp.cost(), resp.modelId(), resp.replayed(), null, null);
  }

  // ------------------------------------------------------------------ tool call

  @Override
  public ToolCallResult toolCall(ToolCallRequest r) {
    ActivityIdentity id = ActivityIdentity.current();
    String key = id.activityKey("TOOL_CALL");
    Ledger ho1 = ledgers.ho1();
    Optional<String> done = ho1.idForKey(key);
    if (done.isPresent()) {
      LedgerEntry e = ho1.byId(done.get()).orElseThrow();
      return new ToolCallResult(e.entryId(), e.metaText("tool_use_id"), e.metaText("tool_id"), e.metaText("status"),
          e.metaText("error_code"));
    }
    ToolUse use = r.toolUse();
    long start = clock.millis();
    ToolResult result;
    try {
      result = Heartbeats.during(() -> {
        FaultPoints.at(FaultPoints.TOOL_CALL);
        return tools.execute(r.agentClass(), use.name(), use.input(), r.allowedTools());
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
        .put("tool_use_id", use.id()).put("status", result.status()).put("result", content)
        .put("duration_ms", clock.millis() - start);
    meta.set("arguments", use.input());
    if (result.errorCode() != null) {
      meta.put("error_code", result.errorCode());
    }
    String entryId = ho1.write(LedgerEntry.builder("TOOL_CALL").submissionId(r.woId())
        .decision(result.status().toUpperCase(java.util.Locale.ROOT))
        .reason(use.name() + " " + result.status() + (result.errorCode() == null ? "" : ": " + result.errorCode()))
        .metadata(meta).idempotencyKey(key).build());
    return new ToolCallResult(entryId, use.id(), use.name(), result.status(), result.errorCode());
  }

  // ------------------------------------------------------------------ finish

  @Override
  public WorkOrder finish(WoFinishRequest f) {
    ActivityIdentity id = ActivityIdentity.current();
    WorkOrder wo = f.workOrder();
    // A retried finish (e.g. re-run on replay after a crash) returns the work order it recorded:
    // everything below is a function of the request, except the completion time.
    String now = recordedCompletionTime(id, wo.woId()).orElseGet(() -> clock.instant().toString());
    WorkOrder done;
    if (f.failureCode() != null) {
      done = wo.fail(f.failureCode(), f.failureMessage(), now);
    } else {
      done = complete(wo, f.finalText(), now);
    }
    ObjectNode meta = ho1Meta(wo.woId(), wo.sessionId()).put("wo_type", wo.woType().wireName())
        .put("contract_id", wo.constraints().promptContractId()).put("completed_at", now);
    meta.set("cost", Json.tree(done.cost()));
    String type;
    if (done.error() != null) {
      type = "WO_FAILED";
      meta.put("error_code", done.error().code()).put("error_message", done.error().message());
    } else {
      type = "WO_COMPLETED";
      meta.set("output_result", done.outputResult());
    }
    ledgers.ho1().write(LedgerEntry.builder(type).submissionId(wo.woId())
        .decision(done.error() == null ? "COMPLETED" : "FAILED")
        .reason(done.error() == null ? "executing -> completed" : done.error().code() + ": " + done.error().message())
        .metadata(meta).idempotencyKey(id.runKey(type + "/" + wo.woId())).build());
    return done;
  }

  /** The completed_at of the WO_COMPLETED or WO_FAILED this run already wrote for the work order, if any. */
  private Optional<String> recordedCompletionTime(ActivityIdentity id, String woId) {
    Ledger ho1 = ledgers.ho1();
    for (String type : List.of("WO_COMPLETED", "WO_FAILED")) {
      Optional<String> at = ho1.idForKey(id.runKey(type + "/" + woId)).flatMap(ho1::byId)
          .map(e -> e.metaText("completed_at"));
      if (at.isPresent()) {
        return at;
      }
    }
    return Optional.empty();
  }

  private WorkOrder complete(WorkOrder wo, String text, String now) {
    if (text != null && text.startsWith("ref:")) {
      return wo.complete(Json.object().put("tool_entry_id", text.substring(4)), now);
    }
    PromptContract contract = contracts.load(wo.constraints().promptContractId());
    JsonNode output;
    if (contract.structuredOutput()) {
      try {
        output = PromptRenderer.parseModelJson(text == null ? "" : text);
      } catch (IllegalArgumentException e) {
        return wo.fail(WoErrorCode.OUTPUT_SCHEMA_INVALID, "the model's answer is not JSON: " + e.getMessage(), now);
      }
    } else {
      output = Json.MAPPER.getNodeFactory().textNode(text == null ? "" : text);
    }
    List<String> problems = contracts.validateOutput(contract, output);
    if (!problems.isEmpty()) {
      return wo.fail(WoErrorCode.OUTPUT_SCHEMA_INVALID, "output does not match " + contract.contractId() + ": "
          + String.join("; ", problems), now);
    }
    return wo.complete(output.isObject() ? output : Json.object().set("text", output), now);
  }

  // ------------------------------------------------------------------ degraded

  @Override
  public LlmRoundResult degradedCall(DegradedRequest r) {
    ActivityIdentity id = ActivityIdentity.current();
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
    return toResult(resp);
  }

  private static ObjectNode ho1Meta(String woId, String sessionId) {
    return Json.object().put("tier", "ho1").put("wo_id", woId).put("session_id", sessionId);
  }
}
