package cp.activities;

import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.ledger.TurnExchanges;
import cp.model.AgentProfile;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.SessionEvent;
import cp.model.WoCost;
import cp.observability.Telemetry;

/** The session host's activities: agent limits and the HOT-ledger session events. */
public final class SessionActivitiesImpl implements SessionActivities {
  /** Work orders get the contract timeout budget of one long LLM call plus tools. */
  public static final int WO_TIMEOUT_SECONDS = 600;
  static final String DEGRADATION = EventType.DEGRADATION.wire();

  private final Catalog catalog;
  private final Ledgers ledgers;
  private final ActivityContextSource context;
  private final Telemetry telemetry;

  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers) {
    this(catalog, ledgers, ActivityContextSource.TEMPORAL);
  }

  /** As above, learning each call's activity identity from {@code context} (outside Temporal: the benchmark). */
  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers, ActivityContextSource context) {
    this(catalog, ledgers, context, Telemetry.NOOP);
  }

  /** As above, counting degradations in {@code telemetry}'s metrics. */
  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers, ActivityContextSource context, Telemetry telemetry) {
    this.telemetry = java.util.Objects.requireNonNull(telemetry, "telemetry");
    this.catalog = catalog;
    this.ledgers = ledgers;
    this.context = java.util.Objects.requireNonNull(context, "context");
  }

  @Override
  public AgentProfile profile(String agentClass) {
    AgentConfig a;
    try {
      a = catalog.agent(agentClass);
    } catch (cp.contracts.CatalogEntryNotFoundException e) {
      // The session turns this into start_refused naming the class (issue 12); details[0]: the known classes.
      throw io.temporal.failure.ApplicationFailure.newNonRetryableFailure(e.getMessage(), cp.model.Refusal.UNKNOWN_AGENT_CLASS,
          catalog.agentClasses());
    } catch (RuntimeException e) {
      throw FailureCode.CONFIG_ERROR.failure(e.getMessage());
    }
    var b = a.budget();
    return new AgentProfile(a.agentClass(), a.agentId(), a.frameworkId(), a.attentionTemplateId(), a.toolIds(),
        b.sessionTokenLimit(), b.turnLimit(), b.timeoutSeconds(), b.idleTimeoutSeconds(), b.woTokenBudget(),
        b.woTurnLimit(), WO_TIMEOUT_SECONDS, b.maxMessageBytes(), a.qualityGate().maxRetries(),
        a.qualityGate().maxResponseChars(), b.turnTimeoutSeconds(), approvals(a));
  }

  /** The agent's tools whose calls wait for a person (issue 15): configured, or by default those that write. */
  static java.util.List<cp.model.ToolApproval> approvals(AgentConfig a) {
    return a.tools().stream().filter(t -> t.approvalRequired(cp.tools.BuiltinTools.WRITING))
        .map(t -> new cp.model.ToolApproval(t.toolId(), t.effectiveApprovalTimeoutSeconds(), t.grantOnTimeout()))
        .toList();
  }

  /**
   * Session events are keyed by session (the workflow id), not by run: continue-as-new starts a
   * new run of the same session, which must not start or end it again.
   */
  @Override
  public String record(SessionEvent event) {
    ActivityIdentity id = context.identity();
    var meta = (com.fasterxml.jackson.databind.node.ObjectNode) event.metadata();
    meta.put("session_id", event.sessionId());
    meta.put("tier", "hot");
    String key = id.workflowId() + "/" + event.key();
    // Counted once: when this attempt is the one that writes the DEGRADATION (not a retry of a written one).
    boolean degradation = DEGRADATION.equals(event.eventType()) && telemetry.metrics().enabled()
        && ledgers.hot().idForKey(key).isEmpty();
    String entryId = ledgers.hot().write(LedgerEntry.builder(event.eventType()).submissionId(event.sessionId())
        .decision(event.decision()).reason(event.reason()).metadata(meta)
        .idempotencyKey(key).build());
    if (degradation) {
      telemetry.metrics().degraded(event.metadata().path("agent_class").asText(null));
    }
    return entryId;
  }

  @Override
  public long turnSpend(String sessionId, String turnWorkflowId) {
    return turnCost(sessionId, turnWorkflowId).totalTokens();
  }

  @Override
  public WoCost turnCost(String sessionId, String turnWorkflowId) {
    return TurnExchanges.cost(ledgers.hot(), sessionId, turnWorkflowId);
  }
}
