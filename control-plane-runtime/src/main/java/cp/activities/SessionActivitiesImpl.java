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
  private final KeyedWrites writes;
  private final Telemetry telemetry;
  private final AgentPrices prices;
  private final cp.gateway.TenantGuard tenants;

  /** As below, with no prices: profiles carry no dollar figures for the smallest call. */
  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers, ActivityContextSource context, Telemetry telemetry) {
    this(catalog, ledgers, context, telemetry, AgentPrices.NONE);
  }

  /**
   * Learns each call's activity identity from {@code context} ({@link ActivityContextSource#TEMPORAL}
   * in a worker) and counts degradations in {@code telemetry}'s metrics ({@link Telemetry#NOOP}: none);
   * {@code prices} price the agent's smallest call for its dollar budget (issue 23).
   */
  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers, ActivityContextSource context, Telemetry telemetry,
      AgentPrices prices) {
    this(catalog, ledgers, context, telemetry, prices, cp.gateway.TenantGuard.NONE);
  }

  /** As above; {@code tenants}: the tenants' caps and counters, for a turn refused up front (issue 23). */
  public SessionActivitiesImpl(Catalog catalog, Ledgers ledgers, ActivityContextSource context, Telemetry telemetry,
      AgentPrices prices, cp.gateway.TenantGuard tenants) {
    this.tenants = java.util.Objects.requireNonNull(tenants, "tenants");
    this.catalog = catalog;
    this.prices = java.util.Objects.requireNonNull(prices, "prices");
    this.writes = new KeyedWrites(ledgers, context);
    this.telemetry = java.util.Objects.requireNonNull(telemetry, "telemetry");
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
        a.qualityGate().maxResponseChars(), b.turnTimeoutSeconds(), approvals(a), a.approvers(), smallestCall(a),
        b.workOrderUsd(), b.sessionUsd(), smallestCallUsd(a).orElse(null), promptPrice(a).orElse(null));
  }

  @Override
  public AgentProfile profileForTenant(String agentClass, String tenant) {
    return profile(agentClass).withTenantCapped(tenants.capped(tenant));
  }

  /**
   * Issue 23: the most the agent's smallest call (see {@link #smallestCall}) can cost, its tokens at
   * the dearest prompt price and max_tokens at the output price; empty without a dollar cap or a price.
   */
  java.util.Optional<Double> smallestCallUsd(AgentConfig a) {
    if (!a.budget().hasUsdCap()) {
      return java.util.Optional.empty();
    }
    return catalog.findContract(cp.model.ContractIds.CLASSIFY).flatMap(c -> prices.of(a.agentClass(), c.boundary())
        .map(p -> {
          long maxTokens = c.boundary().maxTokens();
          return p.worstCase(smallestCall(a) - maxTokens, maxTokens);
        }));
  }

  /** The dearest price of one of the agent's prompt tokens, per million, for the user's message (issue 23). */
  java.util.Optional<Double> promptPrice(AgentConfig a) {
    if (!a.budget().hasUsdCap()) {
      return java.util.Optional.empty();
    }
    return catalog.findContract(cp.model.ContractIds.CLASSIFY).flatMap(c -> prices.of(a.agentClass(), c.boundary()))
        .map(p -> Math.max(p.inputPerMillion(), Math.max(p.cacheReadPerMillion(), p.cacheWritePerMillion())));
  }

  /**
   * What the agent's smallest model call reserves (issue 20): a turn's classify call, its prompt
   * rendered for an empty message (the session adds the message's own estimate) plus the classify
   * contract's max_tokens; 0 when the catalog has no classify contract (no up-front check then).
   */
  long smallestCall(AgentConfig a) {
    return catalog.findContract(cp.model.ContractIds.CLASSIFY).map(c -> {
      cp.contracts.RenderedPrompt p = new cp.contracts.PromptRenderer().render(catalog.promptPack(c.promptPackId()),
          cp.model.Json.object().put("user_input", ""), a);
      return cp.model.TokenEstimates.ofChars(p.system().length() + p.user().length()) + c.boundary().maxTokens();
    }).orElse(0L);
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
    var meta = (com.fasterxml.jackson.databind.node.ObjectNode) event.metadata();
    meta.put("session_id", event.sessionId());
    meta.put("tier", "hot");
    // Keyed by session, not run (see above). Counted once: when this attempt is the one that writes
    // the DEGRADATION (not a retry of a written one).
    boolean countDegradation = DEGRADATION.equals(event.eventType()) && telemetry.metrics().enabled();
    KeyedWrites.Written w = writes.write(writes.ledgers().hot(), LedgerEntry.builder(event.eventType())
        .submissionId(event.sessionId()).decision(event.decision()).reason(event.reason()).metadata(meta),
        writes.identity().workflowId() + "/" + event.key(), countDegradation);
    if (w.firstTime()) {
      telemetry.metrics().degraded(event.metadata().path("agent_class").asText(null));
    }
    return w.entryId();
  }

  @Override
  public long turnSpend(String sessionId, String turnWorkflowId) {
    return turnCost(sessionId, turnWorkflowId).totalTokens();
  }

  @Override
  public WoCost turnCost(String sessionId, String turnWorkflowId) {
    return TurnExchanges.cost(writes.ledgers().hot(), sessionId, turnWorkflowId);
  }

  @Override
  public cp.model.TenantRoom tenantRoom(cp.model.TenantRoom.Request r) {
    AgentConfig a = catalog.agent(r.agentClass());
    return catalog.findContract(cp.model.ContractIds.CLASSIFY).flatMap(c -> {
      long maxTokens = c.boundary().maxTokens();
      return tenants.upFront(r.tenant(), prices.of(a.agentClass(), c.boundary()),
          smallestCall(a) - maxTokens + r.messageTokens(), maxTokens);
    }).map(u -> {
      var d = u.decision();
      String tenant = cp.model.TenantId.orDefault(r.tenant());
      String message = "tenant " + tenant + "'s " + (cp.model.UsdBudgets.TENANT_DAY.equals(d.level()) ? "daily"
          : "monthly") + " cap " + cp.model.UsdBudgets.usd(d.cap()) + " (" + d.level() + ") has "
          + cp.model.UsdBudgets.usd(d.spent()) + " spent and this turn's first model call reserves up to "
          + cp.model.UsdBudgets.usd(u.needed()) + "; it resets at " + d.resets() + ": try again then, or have an"
          + " operator raise the tenant's cap (" + cp.model.UsdBudgets.TENANTS_FILE + ")";
      return new cp.model.TenantRoom(d.level(), d.cap(), d.spent(), u.needed(), d.resets().toString(), message);
    }).orElse(cp.model.TenantRoom.ENOUGH);
  }
}
