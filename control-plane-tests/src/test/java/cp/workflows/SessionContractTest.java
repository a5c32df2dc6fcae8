package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Refusal;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowQueryException;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 5: the session workflow defends its own contract against a foreign client (an
 * untyped stub sending raw JSON-shaped payloads, as the TypeScript SDK would), not only ours.
 */
class SessionContractTest {
  static final String SID = "SES-0c0ffee0";
  FakeActivities.Session session;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    session = new FakeActivities.Session();
    h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(), session, 600, false,
        java.util.Optional.empty());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  /** A foreign client's stub: no search attributes, the workflow type by name. */
  private WorkflowStub foreign(String workflowId) {
    return h.client.newUntypedWorkflowStub("SessionWorkflow", WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(workflowId).build());
  }

  private static Map<String, Object> input(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /** Starts with {@code arg} and returns the start refusal the workflow failed with, within 5 s. */
  private ApplicationFailure startRefusal(String workflowId, Object arg) {
    WorkflowStub stub = foreign(workflowId);
    stub.start(arg);
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> stub.getResult(5, TimeUnit.SECONDS, SessionSummary.class),
        "the workflow must fail within 5 s instead of retrying its first task");
    ApplicationFailure af = innermost(e);
    assertEquals(Refusal.START_REFUSED, af.getType());
    assertTrue(af.isNonRetryable());
    assertClean(af.getOriginalMessage());
    return af;
  }

  private static ApplicationFailure innermost(Throwable e) {
    ApplicationFailure af = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        af = a;
      }
    }
    assertNotNull(af, "no ApplicationFailure in " + chain(e));
    return af;
  }

  static String chain(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append("\n  ").append(t.getClass().getName()).append(": ").append(t.getMessage());
      if (t instanceof ApplicationFailure a) {
        b.append(" [type ").append(a.getType()).append("]");
      }
    }
    return b.toString();
  }

  /** No Java class names or Jackson text reach a client. */
  static void assertClean(String msg) {
    assertNotNull(msg);
    for (String bad : List.of("java.", "Exception", "Jackson", "jackson", "com.fasterxml", "cp.model")) {
      assertFalse(msg.contains(bad), "'" + bad + "' reached the client: " + msg);
    }
  }

  private static Refusal code(ApplicationFailure af) {
    return af.getDetails().get(0, Refusal.class, Refusal.class);
  }

  @Test
  void startWithoutAgentClass_failsAtOnceNamingTheField() {
    ApplicationFailure af = startRefusal(SID, input("session_id", SID));
    assertTrue(af.getOriginalMessage().contains("agent_class is missing"), af.getOriginalMessage());
    assertEquals("missing_field", code(af).code());
    assertEquals(List.of(), session.types(), "nothing written for a refused start");
  }

  @Test
  void startWithLowerCaseAgentClass_failsAtOnce() {
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "admin"));
    assertTrue(af.getOriginalMessage().contains("agent_class 'admin'"), af.getOriginalMessage());
    assertTrue(af.getOriginalMessage().contains("upper-case"), af.getOriginalMessage());
  }

  @Test
  void startWithUnknownAgentClass_failsAtOnceNamingIt() {
    session.knownClasses = List.of("ADMIN", "RESIDENT");
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "ROOT"));
    assertTrue(af.getOriginalMessage().contains("agent_class 'ROOT' is unknown"), af.getOriginalMessage());
    assertTrue(af.getOriginalMessage().contains("ADMIN, RESIDENT"), af.getOriginalMessage());
    assertEquals("unknown_agent_class", code(af).code());
  }

  @Test
  void startWhoseWorkflowIdIsNotTheSessionId_failsAtOnce() {
    ApplicationFailure af = startRefusal("SES-99999999", input("session_id", SID, "agent_class", "ADMIN"));
    assertTrue(af.getOriginalMessage().contains("workflow id 'SES-99999999'"), af.getOriginalMessage());
    assertTrue(af.getOriginalMessage().contains("session_id '" + SID + "'"), af.getOriginalMessage());
  }

  @Test
  void startWithWrongTypes_failsAtOnceNamingTheField() {
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "ADMIN",
        "continue_as_new_after_turns", "many"));
    assertTrue(af.getOriginalMessage().contains("continue_as_new_after_turns"), af.getOriginalMessage());
    assertEquals("wrong_type", code(af).code());
    ApplicationFailure num = startRefusal("SES-00000042", input("session_id", "SES-00000042", "agent_class", 42));
    assertTrue(num.getOriginalMessage().contains("agent_class must be a string; got a number"),
        num.getOriginalMessage());
    ApplicationFailure bare = startRefusal("SES-00000043", "hello");
    assertTrue(bare.getOriginalMessage().contains("got a string"), bare.getOriginalMessage());
  }

  @Test
  void aTurnSentToARefusedStart_neverHangs() throws Exception {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID));
    java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
        () -> java.util.concurrent.CompletableFuture
            .supplyAsync(() -> stub.update("turn", TurnResult.class, input("text", "hi")))
            .get(10, TimeUnit.SECONDS), "the turn must not hang");
    assertTrue(e.getCause() instanceof WorkflowException, chain(e));
  }

  /**
   * Issue 20 §2: what a foreign client meets after {@code start_refused}, as the contract's
   * "After start_refused" documents it: the workflow is closed (FAILED, the refusal as its
   * failure), so every later Update and Signal is refused by the service itself (not found), the
   * Query {@code state} answers null, and nothing of the session runs or is written.
   */
  @Test
  void afterARefusedStart_updatesAndSignalsAreNotFound_stateIsNull_andTheResultIsTheRefusal() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "admin"));
    WorkflowFailedException failed = assertThrows(WorkflowFailedException.class,
        () -> stub.getResult(5, TimeUnit.SECONDS, SessionSummary.class));
    assertEquals(Refusal.START_REFUSED, innermost(failed).getType());

    WorkflowStub later = h.client.newUntypedWorkflowStub(SID);
    assertEquals(io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED,
        later.describe().getStatus());
    Exception update = assertThrows(Exception.class, () -> later.update("turn", TurnResult.class, input("text", "hi")));
    assertTrue(update instanceof io.temporal.client.WorkflowNotFoundException
        || update.getCause() instanceof io.temporal.client.WorkflowNotFoundException, chain(update));
    Exception signal = assertThrows(Exception.class, () -> later.signal(SessionWorkflow.APPROVAL_CLOSED, input()));
    assertTrue(signal instanceof io.temporal.client.WorkflowNotFoundException, chain(signal));
    assertEquals(null, later.query("state", SessionState.class));
    assertEquals(List.of(), session.types(), "nothing written");
  }

  /**
   * What the contract says of update-with-start: a turn the session refuses does not undo the
   * start (the service starts the workflow whatever the Update's validator says), so the session
   * runs, empty, until an {@code end} or its idle timeout. Pins the documented behaviour.
   */
  @Test
  void updateWithStart_whoseTurnIsRefused_leavesTheStartedSessionRunning_untilItIsEnded() throws Exception {
    SessionWorkflow stub = h.client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(SID)
        .setWorkflowIdConflictPolicy(io.temporal.api.enums.v1.WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
        .build());
    io.temporal.client.WithStartWorkflowOperation<SessionSummary> start =
        new io.temporal.client.WithStartWorkflowOperation<>(stub::run, new SessionInput(SID, "ADMIN", null, 0));
    assertThrows(WorkflowUpdateException.class, () -> io.temporal.client.WorkflowClient.executeUpdateWithStart(
        stub::turn, new TurnRequest(" "), io.temporal.client.UpdateOptions.<TurnResult>newBuilder()
            .setWaitForStage(io.temporal.client.WorkflowUpdateStage.COMPLETED).build(), start));

    WorkflowStub session = h.client.newUntypedWorkflowStub(SID);
    assertEquals(io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
        session.describe().getStatus(), "the start stands though the turn was refused");
    assertEquals(0, session.query("state", SessionState.class).turns());
    session.update("end", SessionSummary.class);
    assertEquals("end", session.getResult(5, TimeUnit.SECONDS, SessionSummary.class).endReason());
  }

  @Test
  void theWorkflowSetsItsOwnSearchAttributes() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    assertNotNull(stub.query("state", SessionState.class));
    var sa = stub.describe().getTypedSearchAttributes();
    assertEquals(SID, sa.get(CpSearchAttributes.SESSION_ID));
    assertEquals("ADMIN", sa.get(CpSearchAttributes.AGENT_CLASS));
    assertEquals(0L, sa.get(CpSearchAttributes.TURN));
  }

  @Test
  void aStartNamingATenant_putsItInSessionStartAndCpTenant_andWithoutOneTheTenantIsDefault() {
    WorkflowStub acme = foreign(SID);
    acme.start(input("session_id", SID, "agent_class", "ADMIN", "tenant", "acme"));
    assertNotNull(acme.query("state", SessionState.class));
    assertEquals("acme", acme.describe().getTypedSearchAttributes().get(CpSearchAttributes.TENANT));
    WorkflowStub plain = foreign("SES-00000044");
    plain.start(input("session_id", "SES-00000044", "agent_class", "ADMIN"));
    assertNotNull(plain.query("state", SessionState.class));
    assertEquals(cp.model.TenantId.DEFAULT, plain.describe().getTypedSearchAttributes().get(CpSearchAttributes.TENANT));
    List<String> tenants = session.events.stream().filter(e -> e.eventType().equals("SESSION_START"))
        .map(e -> e.sessionId() + "=" + e.metadata().get("tenant").asText()).sorted().toList();
    assertEquals(List.of("SES-00000044=default", SID + "=acme"), tenants);
  }

  @Test
  void aStartWithABadTenant_failsAtOnceNamingIt() {
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "ADMIN", "tenant", "acme corp"));
    assertTrue(af.getOriginalMessage().contains("tenant 'acme corp' is not a tenant id"), af.getOriginalMessage());
    assertEquals("invalid_tenant", code(af).code());
    assertEquals("tenant", code(af).field());
    ApplicationFailure num = startRefusal("SES-00000045", input("session_id", "SES-00000045", "agent_class", "ADMIN",
        "tenant", 7));
    assertEquals("wrong_type", code(num).code());
    assertEquals(List.of(), session.types(), "nothing written for a refused start");
  }

  private ApplicationFailure turnRefusal(WorkflowStub stub, Object arg) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class,
        () -> stub.update("turn", TurnResult.class, arg));
    ApplicationFailure af = innermost(e);
    assertEquals(Refusal.TURN_REFUSED, af.getType(), chain(e));
    assertTrue(af.isNonRetryable());
    assertClean(af.getOriginalMessage());
    return af;
  }

  @Test
  void turnArgumentsAreCheckedByName() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    ApplicationFailure unknown = turnRefusal(stub, input("message", "hi"));
    assertEquals("turn expects {\"text\": string}; got field 'message'", unknown.getOriginalMessage());
    assertEquals("unknown_field", code(unknown).code());
    ApplicationFailure number = turnRefusal(stub, 42);
    assertEquals("turn expects {\"text\": string}; got a number", number.getOriginalMessage());
    assertEquals("wrong_type", code(number).code());
    ApplicationFailure textNumber = turnRefusal(stub, input("text", 7));
    assertTrue(textNumber.getOriginalMessage().contains("'text' is a number"), textNumber.getOriginalMessage());
    ApplicationFailure empty = turnRefusal(stub, input("text", "  "));
    assertEquals("empty_text", code(empty).code());
    assertEquals(1, stub.update("turn", TurnResult.class, input("text", "hello")).turn());
  }

  @Test
  void turnAndEndAfterTheEnd_sayTheSessionHasEnded_andStateIsTheDocumentedCheck() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    stub.update("turn", TurnResult.class, input("text", "hello"));
    SessionSummary sum = stub.update("end", SessionSummary.class);
    assertEquals("end", sum.endReason());
    // The session is closed: a foreign client's Update is refused by the service, and the
    // documented check is the state Query (answered on a closed workflow) or its result.
    SessionState st = stub.query("state", SessionState.class);
    assertTrue(st.ended());
    assertEquals("end", st.endReason());
    assertEquals(1, st.turns());
    assertEquals("end", stub.getResult(SessionSummary.class).endReason());
  }

  @Test
  void anUnknownUpdate_isRefusedTypedAndNonRetryable_withOurCode_andNothingHappens() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    stub.query("state", com.fasterxml.jackson.databind.JsonNode.class);

    io.temporal.client.WorkflowUpdateException e = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> stub.update("approve_all", Object.class, input("everything", true)));

    ApplicationFailure af = innermost(e);
    assertEquals("unknown_update", af.getType(), chain(e));
    assertTrue(af.isNonRetryable(), "a foreign client must not retry it");
    assertEquals("unknown_update", code(af).code());
    assertTrue(af.getOriginalMessage().contains("unknown update 'approve_all' (known: turn, end, approve)"),
        af.getOriginalMessage());
    assertClean(af.getOriginalMessage());
    assertEquals(0, stub.query("state", cp.model.SessionState.class).turns(), "nothing happened");
  }

  @Test
  void theStateQuery_listsPendingApprovalsAsAnEmptyList_whenNoneWait() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));

    com.fasterxml.jackson.databind.JsonNode state = stub.query("state", com.fasterxml.jackson.databind.JsonNode.class);

    assertTrue(state.has("pending_approvals"), "pending_approvals is left out: " + state);
    assertTrue(state.get("pending_approvals").isArray() && state.get("pending_approvals").isEmpty(), state.toString());
  }

  @Test
  void aStartCarryingAStateWithoutItsProfile_isRefusedAtOnce_insteadOfFailingItsFirstTaskForEver() {
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "ADMIN", "carried",
        Map.of("turns", 3)));
    assertEquals("carried", code(af).field(), af.getOriginalMessage());
    assertEquals(io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED,
        h.client.newUntypedWorkflowStub(SID).describe().getStatus(), "no running workflow is left behind");
  }

  /**
   * A client must not send {@code carried} (client contract): it is the session's own state, with
   * the agent's profile (budgets, tools, approvals) in it. A start carrying a whole, well-formed
   * state was taken over as it came, so a client could run a session on a profile of its own making
   * (here: no approval before write_file and a billion tokens). Only a run the session continued
   * as new may carry it; while a session continued as new still takes its state over.
   */
  @Test
  void aStartCarryingAWholeStateOfItsOwnMaking_isRefused_butAContinuedRunStillTakesItsStateOver() {
    cp.model.AgentProfile forged = session.profile("ADMIN");
    forged = new cp.model.AgentProfile(forged.agentClass(), forged.agentId(), forged.frameworkId(),
        forged.attentionTemplateId(), forged.toolIds(), 1_000_000_000L, forged.turnLimit(), forged.timeoutSeconds(),
        forged.idleTimeoutSeconds(), 1_000_000_000L, forged.woTurnLimit(), forged.woTimeoutSeconds(),
        forged.maxMessageBytes(), forged.maxRetries(), forged.maxResponseChars(), forged.turnTimeoutSeconds(),
        java.util.List.of(), forged.approvers(), forged.smallestCallTokens(), null, null, null, null);
    SessionState carried = new SessionState(SID, "ADMIN", forged, 0, 0, 1_000_000_000L, 0, null, false, null, 0, 1, 0);
    ApplicationFailure af = startRefusal(SID, input("session_id", SID, "agent_class", "ADMIN", "carried",
        cp.model.Json.convert(cp.model.Json.tree(carried), Map.class)));
    assertEquals("carried", code(af).field(), af.getOriginalMessage());
    assertEquals("unknown_field", code(af).code(), af.getOriginalMessage());
    assertTrue(af.getOriginalMessage().contains("a client must not send it"), af.getOriginalMessage());

    String continued = "SES-0c0ffee1";
    SessionWorkflow wf = h.client.newWorkflowStub(SessionWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(continued).build());
    io.temporal.client.WorkflowClient.start(wf::run, new SessionInput(continued, "ADMIN", null, 2));
    for (int t = 1; t <= 3; t++) {
      assertEquals(t, wf.turn(new TurnRequest("hello " + t)).turn(), "turn " + t + " across continue-as-new");
    }
    assertEquals(3, wf.state().turns(), "the run after continue-as-new took the session's state over");
  }

  @Test
  void anUnknownQuery_isAnsweredWithTheKnownOnes() {
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    stub.query("state", SessionState.class);
    WorkflowQueryException e = assertThrows(WorkflowQueryException.class, () -> stub.query("status", String.class));
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertEquals("INVALID_ARGUMENT: unknown query 'status' (known: state)", root.getMessage().strip(), chain(e));
  }

  @Test
  void withEncryptedPayloads_refusalsStillArriveTypedAndReadable() {
    h.close();
    h = new WorkflowHarness(new FakeActivities.Ho1(), new FakeActivities.Ho2(), session, 600, false,
        java.util.Optional.of(ReplayTest.TEST_PAYLOAD_KEY));
    WorkflowStub stub = foreign(SID);
    stub.start(input("session_id", SID, "agent_class", "ADMIN"));
    ApplicationFailure unknown = turnRefusal(stub, input("message", "hi"));
    assertEquals("turn expects {\"text\": string}; got field 'message'", unknown.getOriginalMessage());
    assertEquals("unknown_field", code(unknown).code());
    ApplicationFailure start = startRefusal("SES-00000044", input("session_id", "SES-00000044"));
    assertEquals("missing_field", code(start).code());
  }

  @Test
  void ourOwnTurnRequestStillReadsAsBefore() {
    WorkflowStub stub = foreign(SID);
    stub.start(new SessionInput(SID, "ADMIN", null, 0));
    assertEquals(1, stub.update("turn", TurnResult.class, new TurnRequest("hello")).turn());
  }
}
