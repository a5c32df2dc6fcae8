package cp.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One gateway round trip of a work order's tool loop, by reference: the prompt is in HO1m (a
 * {@link Prepared} prompt's entry) and earlier rounds are EXCHANGE and TOOL_CALL entries
 * ({@code transcript}), so the workflow history holds ids, not conversations.
 *
 * <p>Two protocols send it. A classic round (turn workflows before version {@code lean-turn} 1)
 * has a {@link Prepared} prompt and no {@link Closing}: the workflow prepares and finishes the
 * work order with local activities. A lean round also does HO1's bookkeeping around the call:
 * its {@link Closing} (the work order's cost before the round and its type) asks any round that
 * ends the work order (a final answer, a refusal) to finish it (validate the output, write
 * WO_COMPLETED or WO_FAILED), and its first round carries the work order {@link ToPrepare}
 * (validate its input, render the prompt, write WO_EXECUTING) instead of a prepared prompt.
 *
 * <p>On the wire (activity inputs in recorded histories) the request keeps the one flat shape it
 * always had ({@link Wire}: {@code prompt_ref}, {@code dispatched}, {@code max_tokens},
 * {@code temperature}, {@code cost_before}, {@code wo_type}, {@code record_plan}, each absent when unset), so every
 * recorded history still reads, and a worker of either version reads the other's requests.
 *
 * @param prompt the prepared prompt, or (lean round 1) the work order to prepare
 * @param overrides the work order's own max_tokens and temperature, where it sets them
 * @param closing lean rounds: what finishing the work order needs; empty for classic rounds
 * @param usdBudgetRemaining issue 23: US dollars the work order has left (null: no dollar cap); on
 *     the wire {@code usd_budget_remaining}, absent when null
 * @param usdBudgetLevel the level of the budget that sets it, {@code work_order} or {@code session}
 * @param tenant issue 23: the session's tenant (null before), which the round's EXCHANGE records
 */
public record LlmRoundRequest(
    String woId,
    String sessionId,
    String agentClass,
    String contractId,
    PromptSource prompt,
    List<EntryRef> transcript,
    List<String> allowedTools,
    int round,
    long tokenBudgetRemaining,
    Overrides overrides,
    Optional<Closing> closing,
    Optional<StreamTo> stream,
    Double usdBudgetRemaining,
    String usdBudgetLevel,
    String tenant) {

  /**
   * Issue 24: stream the reply's text to the turn workflow as it arrives, as {@code publisher}
   * with the turn's one-time {@code key} for this round (see {@code ReplyBatch}); absent: one-shot.
   */
  public record StreamTo(String publisher, String key) {
    public StreamTo {
      Objects.requireNonNull(publisher, "stream_publisher");
      Objects.requireNonNull(key, "stream_key");
    }
  }

  /** Without streaming (every request before issue 24). */
  public LlmRoundRequest(String woId, String sessionId, String agentClass, String contractId, PromptSource prompt,
      List<EntryRef> transcript, List<String> allowedTools, int round, long tokenBudgetRemaining, Overrides overrides,
      Optional<Closing> closing) {
    this(woId, sessionId, agentClass, contractId, prompt, transcript, allowedTools, round, tokenBudgetRemaining,
        overrides, closing, Optional.empty(), null, null, null);
  }

  /** The same round, streaming its reply to {@code to}. */
  public LlmRoundRequest streamingTo(StreamTo to) {
    return new LlmRoundRequest(woId, sessionId, agentClass, contractId, prompt, transcript, allowedTools, round,
        tokenBudgetRemaining, overrides, closing, Optional.of(to), usdBudgetRemaining, usdBudgetLevel, tenant);
  }

  /** Where the round's prompt comes from. */
  public sealed interface PromptSource permits Prepared, ToPrepare {}

  /** A prompt already rendered and recorded: its WO_EXECUTING entry in HO1m. */
  public record Prepared(String promptRef) implements PromptSource {
    public Prepared {
      Objects.requireNonNull(promptRef, "prompt_ref");
    }
  }

  /**
   * Lean round 1: the dispatched work order, which the round prepares before it calls the model;
   * with {@code recordPlan} ({@code plan-in-round} 1) the round first writes the work order's
   * WO_PLANNED and WO_DISPATCHED to HO2m ({@link Ho2PlanEvents}), which a local activity wrote before.
   */
  public record ToPrepare(WorkOrder workOrder, boolean recordPlan) implements PromptSource {
    public ToPrepare {
      Objects.requireNonNull(workOrder, "dispatched");
    }

    /** A work order whose plan is already written. */
    public ToPrepare(WorkOrder workOrder) {
      this(workOrder, false);
    }
  }

  /** What the work order says about sampling, where it says anything; the contract's boundary otherwise. */
  public record Overrides(Optional<Integer> maxTokens, Optional<Double> temperature) {
    /** Nothing overridden. */
    public static final Overrides NONE = new Overrides(Optional.empty(), Optional.empty());

    public Overrides {
      maxTokens = maxTokens == null ? Optional.empty() : maxTokens;
      temperature = temperature == null ? Optional.empty() : temperature;
    }

    /** From the work order's nullable constraints. */
    public static Overrides of(Integer maxTokens, Double temperature) {
      return new Overrides(Optional.ofNullable(maxTokens), Optional.ofNullable(temperature));
    }
  }

  /** What a lean round needs to finish its work order: the cost before the round and the work order's type. */
  public record Closing(WoCost costBefore, WoType woType) {
    public Closing {
      Objects.requireNonNull(costBefore, "cost_before");
      Objects.requireNonNull(woType, "wo_type");
    }
  }

  /**
   * @throws IllegalArgumentException when a work order to prepare comes without a closing: only
   *     the lean protocol prepares in a round, and it always finishes too
   */
  public LlmRoundRequest {
    Objects.requireNonNull(woId, "wo_id");
    Objects.requireNonNull(prompt, "prompt");
    transcript = transcript == null ? List.of() : List.copyOf(transcript);
    allowedTools = allowedTools == null ? List.of() : List.copyOf(allowedTools);
    overrides = overrides == null ? Overrides.NONE : overrides;
    closing = closing == null ? Optional.empty() : closing;
    stream = stream == null ? Optional.empty() : stream;
    if (prompt instanceof ToPrepare && closing.isEmpty()) {
      throw new IllegalArgumentException("round " + round + " of " + woId + " prepares its work order (dispatched)"
          + " but does not finish it (no cost_before): only the current protocol prepares in a round");
    }
  }

  /** The same round for tenant {@code tenantId} (issue 23; null: none). */
  public LlmRoundRequest withTenant(String tenantId) {
    return new LlmRoundRequest(woId, sessionId, agentClass, contractId, prompt, transcript, allowedTools, round,
        tokenBudgetRemaining, overrides, closing, stream, usdBudgetRemaining, usdBudgetLevel, tenantId);
  }

  /** The same round with {@code left} US dollars of the {@code level} budget (issue 23; null: no dollar cap). */
  public LlmRoundRequest withUsd(Double left, String level) {
    return new LlmRoundRequest(woId, sessionId, agentClass, contractId, prompt, transcript, allowedTools, round,
        tokenBudgetRemaining, overrides, closing, stream, left, left == null ? null : level, tenant);
  }

  /** A classic round: the prompt already prepared, nothing to finish. */
  public static LlmRoundRequest classic(String woId, String sessionId, String agentClass, String contractId,
      String promptRef, List<EntryRef> transcript, List<String> allowedTools, int round, long tokenBudgetRemaining,
      Overrides overrides) {
    return new LlmRoundRequest(woId, sessionId, agentClass, contractId, new Prepared(promptRef), transcript,
        allowedTools, round, tokenBudgetRemaining, overrides, Optional.empty());
  }

  /** A lean round: {@code prompt} prepared or to prepare, finishing the work order when the round ends it. */
  public static LlmRoundRequest lean(String woId, String sessionId, String agentClass, String contractId,
      PromptSource prompt, List<EntryRef> transcript, List<String> allowedTools, int round, long tokenBudgetRemaining,
      Overrides overrides, Closing closing) {
    return new LlmRoundRequest(woId, sessionId, agentClass, contractId, prompt, transcript, allowedTools, round,
        tokenBudgetRemaining, overrides, Optional.of(closing));
  }

  /** Whether this round finishes the work order when it ends it (see the class comment). */
  public boolean lean() {
    return closing.isPresent();
  }

  /** The flat shape on the wire (see the class comment). */
  @JsonValue
  Wire wire() {
    String promptRef = prompt instanceof Prepared p ? p.promptRef() : null;
    WorkOrder dispatched = prompt instanceof ToPrepare t ? t.workOrder() : null;
    Boolean recordPlan = prompt instanceof ToPrepare t && t.recordPlan() ? Boolean.TRUE : null;
    return new Wire(woId, sessionId, agentClass, contractId, promptRef, transcript, allowedTools, round,
        tokenBudgetRemaining, overrides.maxTokens().orElse(null), overrides.temperature().orElse(null), dispatched,
        closing.map(Closing::costBefore).orElse(null), closing.map(Closing::woType).orElse(null),
        stream.map(StreamTo::publisher).orElse(null), stream.map(StreamTo::key).orElse(null), usdBudgetRemaining,
        usdBudgetLevel, tenant, recordPlan);
  }

  /**
   * Reads the flat shape.
   *
   * @throws IllegalArgumentException when it is not one of the three shapes the runners send: a
   *     prepared prompt ({@code prompt_ref}) or a work order to prepare ({@code dispatched}),
   *     exactly one; finishing with both {@code cost_before} and {@code wo_type}, or neither;
   *     preparing only in a round that also finishes
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static LlmRoundRequest fromWire(Wire w) {
    if ((w.promptRef() == null) == (w.dispatched() == null)) {
      throw new IllegalArgumentException("round " + w.round() + " of " + w.woId() + " needs exactly one of prompt_ref"
          + " (a prepared prompt) and dispatched (a work order to prepare); it has " + (w.promptRef() == null
          ? "neither" : "both"));
    }
    if ((w.costBefore() == null) != (w.woType() == null)) {
      throw new IllegalArgumentException("round " + w.round() + " of " + w.woId() + " finishes its work order with"
          + " both cost_before and wo_type or neither; it has only " + (w.costBefore() == null ? "wo_type"
          : "cost_before"));
    }
    PromptSource prompt = w.promptRef() != null ? new Prepared(w.promptRef())
        : new ToPrepare(w.dispatched(), Boolean.TRUE.equals(w.recordPlan()));
    Optional<Closing> closing = w.costBefore() == null ? Optional.empty()
        : Optional.of(new Closing(w.costBefore(), w.woType()));
    Optional<StreamTo> stream = w.streamPublisher() == null || w.streamKey() == null ? Optional.empty()
        : Optional.of(new StreamTo(w.streamPublisher(), w.streamKey()));
    return new LlmRoundRequest(w.woId(), w.sessionId(), w.agentClass(), w.contractId(), prompt, w.transcript(),
        w.allowedTools(), w.round(), w.tokenBudgetRemaining(), Overrides.of(w.maxTokens(), w.temperature()), closing,
        stream, w.usdBudgetRemaining(), w.usdBudgetLevel(), w.tenant());
  }

  /** The request as activity inputs have always carried it: flat, snake_case, unset parts absent. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Wire(
      String woId,
      String sessionId,
      String agentClass,
      String contractId,
      String promptRef,
      List<EntryRef> transcript,
      List<String> allowedTools,
      int round,
      long tokenBudgetRemaining,
      Integer maxTokens,
      Double temperature,
      WorkOrder dispatched,
      WoCost costBefore,
      WoType woType,
      String streamPublisher,
      String streamKey,
      Double usdBudgetRemaining,
      String usdBudgetLevel,
      String tenant,
      Boolean recordPlan) {}
}
