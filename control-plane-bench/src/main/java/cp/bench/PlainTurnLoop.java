package cp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.Ho1Activities;
import cp.activities.Ho2Activities;
import cp.activities.SessionActivities;
import cp.client.SessionIds;
import cp.model.AgentProfile;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.EventType;
import cp.model.Json;
import cp.model.SessionEvent;
import cp.model.TurnOutcome;
import cp.model.WoConstraints;
import cp.model.WoState;
import cp.model.WoType;
import cp.model.WorkOrder;
import cp.model.ContractIds;
import cp.workflows.GateDecision;
import cp.workflows.Ho2EventLog;
import cp.workflows.QualityGate;
import cp.workflows.SynthesizeInput;
import cp.model.WorkOrderIds;
import cp.workflows.WorkOrderRunner;
import cp.worker.PlaneRuntime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The baseline: a plain Java loop that does what one turn does, with no Temporal at all.
 *
 * <p>It calls the very activity implementations the worker runs (built on {@link DirectActivities},
 * on the calling thread), in the order the current turn workflow (version {@code lean-turn} 1)
 * calls them, through the same {@link WorkOrderRunner} and {@link Ho2EventLog}: the same prompt rendering
 * and schema validation, the same gateway round trips to the same provider, the same ledger
 * entries with the same durability. What it leaves out is exactly what the orchestrator adds:
 * the Update, the child workflow, the history, task round trips and payload conversion.
 */
final class PlainTurnLoop {
  /** Run id of every plain "workflow": the plain loop never retries, so one run is all there is. */
  static final String RUN_ID = "plain-loop";
  /** The classify work order answers in one round (as in the turn workflow). */
  static final int CLASSIFY_TURN_LIMIT = 1;

  private final Ho1Activities ho1;
  private final Ho2Activities ho2;
  private final SessionActivities session;
  private final AgentProfile profile;
  private final ThreadLocal<Scope> scope = new ThreadLocal<>();

  /** The identity direct calls take: the workflow they stand for and a counter of activity ids. */
  private record Scope(String workflowId, AtomicInteger activities) {}

  /** A plain-loop session: its id and how many turns it ran. */
  static final class Session {
    final String id;
    int turns;

    Session(String id) {
      this.id = id;
    }
  }

  PlainTurnLoop(PlaneRuntime runtime, String agentClass) {
    Ho1Activities h1 = null;
    Ho2Activities h2 = null;
    SessionActivities s = null;
    DirectActivities direct = new DirectActivities();
    for (Object a : runtime.activities(direct)) {
      if (a instanceof Ho1Activities x) {
        h1 = x;
      } else if (a instanceof Ho2Activities x) {
        h2 = x;
      } else if (a instanceof SessionActivities x) {
        s = x;
      }
    }
    DirectActivities.IdentitySource ids = () -> {
      Scope sc = scope.get();
      return new String[] {sc.workflowId(), RUN_ID, String.valueOf(sc.activities().incrementAndGet())};
    };
    this.ho1 = direct.proxy(Ho1Activities.class, h1, ids);
    this.ho2 = direct.proxy(Ho2Activities.class, h2, ids);
    this.session = direct.proxy(SessionActivities.class, s, ids);
    this.profile = s.profile(agentClass);
  }

  /** Starts a session: SESSION_START in the HOT ledger, as the session workflow writes it. */
  Session start() {
    Session s = new Session(SessionIds.mint(ThreadLocalRandom.current()));
    inScope(s.id, () -> session.record(new SessionEvent(EventType.SESSION_START.wire(),
        EventType.SESSION_START.wire(), s.id, "STARTED",
        "session started for " + profile.agentClass(), Json.object().put("session_id", s.id)
            .put("agent_class", profile.agentClass()).put("agent_id", profile.agentId()))));
    return s;
  }

  /** One turn, timed, in milliseconds. */
  double timedTurn(Session s, String text) {
    long start = System.nanoTime();
    String outcome = turn(s, text);
    double ms = Stats.millisSince(start);
    requireSuccess(outcome, s.id, text);
    return ms;
  }

  /** One turn: classify, attention, synthesize, quality gate, chain complete. Returns the outcome. */
  String turn(Session s, String text) {
    int n = ++s.turns;
    return inScope(WorkOrderIds.turnWorkflow(s.id, n), () -> runTurn(s.id, n, text));
  }

  private String runTurn(String sessionId, int turn, String text) {
    AgentProfile p = profile;
    Ho2EventLog log = new Ho2EventLog(ho2, p.agentClass(), sessionId, turn);
    WorkOrderRunner runner = new WorkOrderRunner(ho1, ho1, step -> { }, true);
    List<WorkOrder> chain = new ArrayList<>();
    int seq = 0;
    WorkOrder classify = plan(sessionId, turn, ++seq, WoType.CLASSIFY, Json.object().put("user_input", text),
        new WoConstraints(ContractIds.CLASSIFY, p.woTokenBudget(), CLASSIFY_TURN_LIMIT, p.woTimeoutSeconds(),
            List.of(), null, null));
    WorkOrder classified = execute(runner, log, classify, chain);
    JsonNode classification = classified.state() == WoState.COMPLETED && classified.outputResult() != null
        ? classified.outputResult() : SynthesizeInput.unknownClassification();
    AttentionResult context = ho2.attend(new AttentionRequest(sessionId, p.agentClass(), p.attentionTemplateId(),
        turn, text));
    List<String> feedback = List.of();
    for (int attempt = 0; attempt <= p.maxRetries(); attempt++) {
      ObjectNode input = SynthesizeInput.of(text, classification, context, feedback, p);
      WoConstraints constraints = new WoConstraints(ContractIds.SYNTHESIZE, p.woTokenBudget(), p.woTurnLimit(),
          p.woTimeoutSeconds(), p.toolIds(), null, attempt == 0 ? null : 0.0);
      WorkOrder synth = execute(runner, log, plan(sessionId, turn, ++seq, WoType.SYNTHESIZE, input, constraints),
          chain);
      GateDecision decision = QualityGate.verify(synth, p.maxResponseChars());
      if (decision.accepted()) {
        log.qualityGateAndChainComplete(synth, decision, attempt + 1, chain, TurnOutcome.SUCCESS);
        return TurnOutcome.SUCCESS;
      }
      log.qualityGate(synth, decision, attempt + 1);
      feedback = decision.reasons();
    }
    log.chainComplete(chain, true, feedback, TurnOutcome.ESCALATED);
    return TurnOutcome.ESCALATED;
  }

  private WorkOrder plan(String sessionId, int turn, int seq, WoType type, ObjectNode input, WoConstraints c) {
    return WorkOrder.planned(WorkOrderIds.workOrder(sessionId, turn, seq), type, sessionId, profile.agentClass(),
        input, c, Instant.now().toString());
  }

  private WorkOrder execute(WorkOrderRunner runner, Ho2EventLog log, WorkOrder planned, List<WorkOrder> chain) {
    log.plannedAndDispatched(planned);
    WorkOrder done = runner.run(planned.transitionTo(WoState.DISPATCHED), profile.agentClass()).workOrder();
    chain.add(done);
    return done;
  }

  private <T> T inScope(String workflowId, java.util.function.Supplier<T> work) {
    scope.set(new Scope(workflowId, new AtomicInteger()));
    try {
      return work.get();
    } finally {
      scope.remove();
    }
  }

  /** A benchmark turn that did not succeed measures nothing: stop and say so. */
  static void requireSuccess(String outcome, String sessionId, String detail) {
    if (!TurnOutcome.SUCCESS.equals(outcome)) {
      throw new IllegalStateException("a benchmark turn of " + sessionId + " ended '" + outcome
          + "', not success; the measurement would be meaningless (" + detail + ")");
    }
  }
}
