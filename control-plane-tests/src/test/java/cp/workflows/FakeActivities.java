package cp.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import cp.activities.Ho1Activities;
import cp.activities.Ho2Activities;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.ContractIds;
import cp.model.DegradedRequest;
import cp.model.Ho2Event;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import cp.model.Json;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.SessionEvent;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolUse;
import cp.model.WoCost;
import cp.model.WoFinishRequest;
import cp.model.WoOutcome;
import cp.model.WorkOrder;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * In-memory stand-ins for the activities, so the workflows' decisions can be tested on the
 * Temporal test service without files or providers. Each records what it was asked.
 */
final class FakeActivities {
  static AgentProfile profile(long sessionTokens, int turnLimit) {
    return new AgentProfile("ADMIN", "admin-001", "FMWK-005", "ATT-ADMIN-001",
        List.of("list_packages", "read_file"), sessionTokens, turnLimit, 7200, 1800, 4000, 3, 120, 1000, 2, 200);
  }

  /** The longest a hanging fake round blocks, so that a test without a deadline still ends. */
  static final java.time.Duration HANG_AT_MOST = java.time.Duration.ofSeconds(8);

  /** Completion time of every work order the fakes finish. */
  static final String COMPLETED_AT = "2026-01-01T00:00:00Z";

  /** Scripted HO1: classify answers a fixed JSON; synthesize replies come from a script per attempt. */
  static final class Ho1 implements Ho1Activities {
    final List<LlmRoundRequest> rounds = Collections.synchronizedList(new ArrayList<>());
    final List<ToolCallRequest> tools = Collections.synchronizedList(new ArrayList<>());
    final List<WorkOrder> finished = Collections.synchronizedList(new ArrayList<>());
    final List<DegradedRequest> degraded = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger ids = new AtomicInteger();
    volatile String classifyText = "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\"}";
    volatile long tokensPerCall = 100;
    /** Per synthesize round (over the whole test): a reply, or a function of the request. */
    volatile Function<LlmRoundRequest, LlmRoundResult> synthesize = r -> text("{\"response_text\":\"Hello! How can I help?\"}");
    volatile boolean failGateway;
    /** When set, every round and degraded call fails as the gateway does when HOT cannot record it. */
    volatile String hotUnwritable;
    volatile boolean failDegraded;
    /** When set, the degraded call is refused by the gateway with this code (e.g. budget_exhausted). */
    volatile String refuseDegraded;
    /** The message of {@link #refuseDegraded}'s refusal. */
    volatile String refuseDegradedMessage = "refused (test)";
    volatile String degradedText = "degraded answer";
    volatile double degradedCost = 0;
    /**
     * When set, every synthesize round blocks until it is counted down, the activity is cancelled,
     * or {@link #HANG_AT_MOST} passes (then it answers late, as a very slow provider would).
     */
    volatile java.util.concurrent.CountDownLatch hangSynthesize;
    /** Where a round that records its work order's plan (plan-in-round 1) writes WO_PLANNED and WO_DISPATCHED. */
    volatile Ho2 plans;
    /** Counted down when a hanging round noticed its cancellation. */
    final java.util.concurrent.CountDownLatch hangCancelled = new java.util.concurrent.CountDownLatch(1);

    LlmRoundResult text(String t) {
      return new LlmRoundResult.Answered(new LlmRoundResult.Exchange("LED-x" + ids.incrementAndGet(), tokensPerCall / 2,
          tokensPerCall / 2, 0.001, "fake-model", false, "stop"), t);
    }

    LlmRoundResult toolUse(String tool, JsonNode args) {
      var exchange = new LlmRoundResult.Exchange("LED-x" + ids.incrementAndGet(), tokensPerCall / 2, tokensPerCall / 2,
          0.001, "fake-model", false, "tool_use");
      return new LlmRoundResult.ToolCalls(exchange, List.of(new ToolUse("tu-" + ids.get(), tool, args)),
          java.util.Optional.empty());
    }

    @Override
    public PreparedWorkOrder prepare(WorkOrder wo) {
      return new PreparedWorkOrder("LED-prompt-" + wo.woId(), wo.constraints().promptContractId(), null, null);
    }

    @Override
    public LlmRoundResult llmRound(LlmRoundRequest r) {
      rounds.add(r);
      if (r.prompt() instanceof LlmRoundRequest.ToPrepare t && t.recordPlan() && plans != null
          && plans.events.stream().noneMatch(e -> e.key().equals("WO_PLANNED/" + t.workOrder().woId()))) {
        plans.events.addAll(cp.model.Ho2PlanEvents.ofDispatched(t.workOrder()));
      }
      if (hotUnwritable != null) {
        throw ApplicationFailure.newNonRetryableFailure(hotUnwritable, "ledger_unwritable");
      }
      if (failGateway) {
        throw ApplicationFailure.newNonRetryableFailure("provider down (test)", "server_error");
      }
      if (hangSynthesize != null && r.contractId().equals(ContractIds.SYNTHESIZE)) {
        hang(hangSynthesize);
      }
      LlmRoundResult result = r.contractId().equals(ContractIds.CLASSIFY) ? text(classifyText) : synthesize.apply(r);
      return r.lean() ? lean(r, result) : result;
    }

    /** Blocks as a provider that never answers would, heartbeating so that a cancellation reaches it. */
    private void hang(java.util.concurrent.CountDownLatch latch) {
      var ctx = io.temporal.activity.Activity.getExecutionContext();
      long until = System.nanoTime() + HANG_AT_MOST.toNanos();
      try {
        while (!latch.await(100, java.util.concurrent.TimeUnit.MILLISECONDS) && System.nanoTime() < until) {
          ctx.heartbeat(null);
        }
      } catch (io.temporal.client.ActivityCompletionException e) {
        hangCancelled.countDown();
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** As the real lean round does: round 1 reports its prompt entry, a final answer finishes the WO. */
    private LlmRoundResult lean(LlmRoundRequest r, LlmRoundResult result) {
      var promptRef = r.prompt() instanceof LlmRoundRequest.ToPrepare
          ? java.util.Optional.of("LED-prompt-" + r.woId()) : java.util.Optional.<String>empty();
      if (result instanceof LlmRoundResult.ToolCalls calls) {
        return new LlmRoundResult.ToolCalls(calls.exchange(), calls.toolUses(), promptRef);
      }
      if (result instanceof LlmRoundResult.Refused refused) {
        return new LlmRoundResult.Finished(WoOutcome.failed(new cp.model.WoError(refused.code(), refused.message(),
            refused.refusal()), COMPLETED_AT, r.closing().orElseThrow().costBefore()), java.util.Optional.empty(), null);
      }
      var answered = (LlmRoundResult.Answered) result;
      WoCost cost = r.closing().orElseThrow().costBefore().plus(answered.exchange().woCost());
      WoOutcome outcome;
      try {
        outcome = WoOutcome.completed(Json.parse(answered.text()), COMPLETED_AT, cost);
      } catch (IllegalArgumentException e) {
        outcome = WoOutcome.failed("output_schema_invalid", e.getMessage(), COMPLETED_AT, cost);
      }
      return new LlmRoundResult.Finished(outcome, java.util.Optional.of(answered.exchange()), answered.text());
    }

    @Override
    public ToolCallResult toolCall(ToolCallRequest r) {
      tools.add(r);
      return new ToolCallResult("LED-tool" + ids.incrementAndGet(), r.toolUse().id(), r.toolUse().name(), "ok", null);
    }

    @Override
    public WorkOrder finish(WoFinishRequest f) {
      WorkOrder wo = f.workOrder();
      WorkOrder done;
      if (f.failureCode() != null) {
        done = wo.fail(f.failureCode(), f.failureMessage(), COMPLETED_AT);
      } else {
        try {
          done = wo.complete(Json.parse(f.finalText()), COMPLETED_AT);
        } catch (IllegalArgumentException e) {
          done = wo.fail("output_schema_invalid", e.getMessage(), COMPLETED_AT);
        }
      }
      finished.add(done);
      return done;
    }

    @Override
    public LlmRoundResult degradedCall(DegradedRequest r) {
      degraded.add(r);
      if (hotUnwritable != null) {
        throw ApplicationFailure.newNonRetryableFailure(hotUnwritable, "ledger_unwritable");
      }
      if (failDegraded) {
        throw ApplicationFailure.newNonRetryableFailure("still down (test)", "server_error");
      }
      if (refuseDegraded != null) {
        return new LlmRoundResult.Refused(refuseDegraded, refuseDegradedMessage, "LED-rej" + ids.incrementAndGet(), "fake");
      }
      return new LlmRoundResult.Answered(new LlmRoundResult.Exchange("LED-deg" + ids.incrementAndGet(), 10, 5,
          degradedCost, "fake", false, "stop"), degradedText);
    }

    long synthesizeRounds() {
      return rounds.stream().filter(r -> r.contractId().equals(ContractIds.SYNTHESIZE)).count();
    }
  }

  /** Records HO2 events; the trace hash is a fixed marker per call. */
  static final class Ho2 implements Ho2Activities {
    final List<Ho2Event> events = Collections.synchronizedList(new ArrayList<>());
    final List<AttentionRequest> attention = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger hashes = new AtomicInteger();

    @Override
    public Ho2RecordResult record(Ho2Record record) {
      events.addAll(record.events());
      boolean wantsHash = record.events().stream().anyMatch(Ho2Event::withTraceHash);
      return new Ho2RecordResult(record.events().stream().map(e -> "LED-" + e.key()).toList(),
          wantsHash ? "hash-" + hashes.incrementAndGet() : null);
    }

    @Override
    public AttentionResult attend(AttentionRequest request) {
      attention.add(request);
      return new AttentionResult("LED-ctx-" + request.turn(), "ctxhash", 3, 120, 2, false, request.turn() - 1);
    }

    List<String> types() {
      return events.stream().map(Ho2Event::eventType).toList();
    }
  }

  /** Approval records in memory (issue 15): what the turn asked to record, in order. */
  static final class Approvals implements cp.activities.ApprovalActivities {
    final List<cp.model.ApprovalRequest> requests = Collections.synchronizedList(new ArrayList<>());
    final List<cp.model.ApprovalResult> decisions = Collections.synchronizedList(new ArrayList<>());

    @Override
    public cp.model.PendingApproval request(cp.model.ApprovalRequest r) {
      requests.add(r);
      return new cp.model.PendingApproval(r.approvalId(), r.sessionId(), r.turn(), r.turnWorkflowId(), r.woId(),
          r.toolUse().name(), r.toolUse().id(), r.toolUse().name() + " summary",
          java.time.Instant.ofEpochMilli(r.requestedAtMillis()).toString(),
          java.time.Instant.ofEpochMilli(r.requestedAtMillis() + r.timeoutSeconds() * 1000).toString(),
          r.timeoutSeconds(), r.grantOnTimeout() ? "grant" : "deny", "LED-apr-" + r.approvalId());
    }

    @Override
    public String decided(cp.model.ApprovalResult d, String woId) {
      decisions.add(d);
      return "LED-dec-" + d.approvalId();
    }
  }

  /** Session host I/O in memory. */
  static final class Session implements SessionActivities {
    final List<SessionEvent> events = Collections.synchronizedList(new ArrayList<>());
    final Map<String, Long> spend = new ConcurrentHashMap<>();
    /** What a turn workflow's EXCHANGEs hold, for {@link #turnCost}; else {@link #spend} as input tokens. */
    final Map<String, WoCost> spendDetail = new ConcurrentHashMap<>();
    volatile AgentProfile profile = FakeActivities.profile(100_000, 50);
    /** When set, the agent classes the catalog knows; null: every class gets {@link #profile}. */
    volatile List<String> knownClasses;
    /** When set, writing a DEGRADATION fails as a corrupt HOT ledger would: on every attempt. */
    volatile boolean failDegradationLog;
    /** When set, HOT writes after SESSION_START fail as LedgerFailures reports a HOT ledger that refuses appends. */
    volatile String hotUnwritable;
    /** How many more SESSION_END writes fail (as a full disk would) before one succeeds. */
    final java.util.concurrent.atomic.AtomicInteger failSessionEndWrites = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public AgentProfile profile(String agentClass) {
      if (knownClasses != null && !knownClasses.contains(agentClass)) {
        // As SessionActivitiesImpl does for a class the catalog does not have.
        throw ApplicationFailure.newNonRetryableFailure("no agent " + agentClass, cp.model.Refusal.UNKNOWN_AGENT_CLASS,
            knownClasses);
      }
      return profile;
    }

    /**
     * What {@link #profileForTenant} says of the tenant's caps (default: capped, so the session asks
     * its tenant's room as before {@code tenant-capped}); the tenants it was asked for.
     */
    volatile Boolean tenantCapped = Boolean.TRUE;
    final List<String> profileTenants = Collections.synchronizedList(new ArrayList<>());

    @Override
    public AgentProfile profileForTenant(String agentClass, String tenant) {
      profileTenants.add(tenant);
      return profile(agentClass).withTenantCapped(tenantCapped);
    }

    /** How long writing SESSION_START takes (a slow disk), in ms; 0: at once. */
    volatile long sessionStartMillis;

    @Override
    public String record(SessionEvent event) {
      if (event.eventType().equals("SESSION_START") && sessionStartMillis > 0) {
        try {
          Thread.sleep(sessionStartMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (hotUnwritable != null && !event.eventType().equals("SESSION_START")) {
        throw ApplicationFailure.newNonRetryableFailure(hotUnwritable, "ledger_unwritable");
      }
      if (failDegradationLog && event.eventType().equals("DEGRADATION")) {
        throw new IllegalStateException("cannot append to HOT/ledger/governance.jsonl: the chain is broken (test)");
      }
      if (event.eventType().equals("SESSION_END") && failSessionEndWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new IllegalStateException("cannot append to HOT/ledger/governance.jsonl: No space left on device (test)");
      }
      events.add(event);
      return "LED-" + event.key();
    }

    @Override
    public long turnSpend(String sessionId, String turnWorkflowId) {
      return spend.getOrDefault(turnWorkflowId, 0L);
    }

    @Override
    public WoCost turnCost(String sessionId, String turnWorkflowId) {
      WoCost c = spendDetail.get(turnWorkflowId);
      return c != null ? c : new WoCost(spend.getOrDefault(turnWorkflowId, 0L), 0, 0, 0, 0, 0.0);
    }

    /** The tenant checks the session asked, and what each is answered (default: room enough). */
    final List<cp.model.TenantRoom.Request> tenantChecks = Collections.synchronizedList(new ArrayList<>());
    volatile cp.model.TenantRoom tenantRoom = cp.model.TenantRoom.ENOUGH;

    @Override
    public cp.model.TenantRoom tenantRoom(cp.model.TenantRoom.Request request) {
      tenantChecks.add(request);
      return tenantRoom;
    }

    List<String> types() {
      return events.stream().map(SessionEvent::eventType).toList();
    }
  }

  private FakeActivities() {}
}
