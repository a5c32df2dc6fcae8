package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ClientException;
import cp.client.SessionEndedException;
import cp.model.Refusal;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnResult;
import cp.tools.ToolResult;
import cp.workflows.CpSearchAttributes;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 5 against the real worker (real catalog, ledgers, converter): a "foreign" client,
 * the Java SDK's untyped stub sending raw JSON-shaped payloads as the TypeScript SDK would, meets
 * the session's contract; our client reports what the foreign start did.
 */
class ForeignClientContractTest {
  @TempDir Path home;
  PlaneFixture plane;

  @BeforeEach
  void setUp() {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("cp-core 1.0.0"));
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  private WorkflowStub foreign(String workflowId) {
    return plane.connection.client().newUntypedWorkflowStub("SessionWorkflow", WorkflowOptions.newBuilder()
        .setTaskQueue(plane.config.worker().taskQueue()).setWorkflowId(workflowId).build());
  }

  private static Map<String, Object> input(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static ApplicationFailure innermost(Throwable e) {
    ApplicationFailure af = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        af = a;
      }
    }
    assertNotNull(af, "no ApplicationFailure in " + e);
    return af;
  }

  private static void assertClean(String msg) {
    for (String bad : List.of("java.", "Exception", "Jackson", "jackson", "com.fasterxml")) {
      assertFalse(msg.contains(bad), "'" + bad + "' reached the client: " + msg);
    }
  }

  /** Starts as a foreign client would and returns the failure message, asserting it came within 5 s. */
  private String refusedStart(String workflowId, Object arg, String named) {
    WorkflowStub stub = foreign(workflowId);
    long t0 = System.nanoTime();
    stub.start(arg);
    WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
        () -> stub.getResult(5, TimeUnit.SECONDS, SessionSummary.class));
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "failed within 5 s");
    assertEquals(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED, stub.describe().getStatus());
    ApplicationFailure af = innermost(e);
    assertEquals(Refusal.START_REFUSED, af.getType());
    assertTrue(af.isNonRetryable());
    assertTrue(af.getOriginalMessage().contains(named), af.getOriginalMessage());
    assertClean(af.getOriginalMessage());
    return af.getOriginalMessage();
  }

  @Test
  void badStarts_failWithin5s_namingTheProblem_andOurClientSaysTheSessionCouldNotStart() {
    refusedStart("SES-0000f001", input("session_id", "SES-0000f001"), "agent_class is missing");
    String admin = refusedStart("SES-0000f002", input("session_id", "SES-0000f002", "agent_class", "admin"),
        "agent_class 'admin'");
    assertTrue(admin.contains("did you mean 'ADMIN'"), admin);
    String unknown = refusedStart("SES-0000f003", input("session_id", "SES-0000f003", "agent_class", "ROOT"),
        "agent_class 'ROOT' is unknown");
    assertTrue(unknown.contains("(known: ADMIN, RESIDENT)"), unknown);
    refusedStart("SES-0000f004", input("session_id", "SES-0000f005", "agent_class", "ADMIN"),
        "is not the workflow id 'SES-0000f004'");
    refusedStart("SES-0000f006", input("session_id", "SES-0000f006", "agent_class", 42),
        "agent_class must be a string; got a number");
    refusedStart("SES-0000f007", 42, "start input must be an object");

    // No turn ever hangs on a bad start: our client says why, at once.
    long t0 = System.nanoTime();
    ClientException e = assertThrows(ClientException.class, () -> plane.client.turn("SES-0000f001", "hello"));
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "the turn did not hang");
    assertEquals(ClientException.Kind.REFUSED, e.kind());
    assertEquals("session SES-0000f001 could not start: start input: agent_class is missing (an agent class as"
        + " the catalog names it, upper-case, e.g. ADMIN)", e.getMessage());
  }

  @Test
  void aForeignSession_isFindable_refusesMalformedTurnsByName_andEndsAsDocumented() {
    String sid = "SES-0000f010";
    WorkflowStub stub = foreign(sid);
    stub.start(input("session_id", sid, "agent_class", "ADMIN"));
    assertNotNull(stub.query("state", SessionState.class));
    var sa = stub.describe().getTypedSearchAttributes();
    assertEquals(sid, sa.get(CpSearchAttributes.SESSION_ID));
    assertEquals("ADMIN", sa.get(CpSearchAttributes.AGENT_CLASS));

    WorkflowUpdateException byName = assertThrows(WorkflowUpdateException.class,
        () -> stub.update("turn", TurnResult.class, input("message", "hi")));
    assertEquals(Refusal.TURN_REFUSED, innermost(byName).getType());
    assertEquals("turn expects {\"text\": string}; got field 'message'", innermost(byName).getOriginalMessage());
    WorkflowUpdateException number = assertThrows(WorkflowUpdateException.class,
        () -> stub.update("turn", TurnResult.class, 42));
    assertEquals("turn expects {\"text\": string}; got a number", innermost(number).getOriginalMessage());
    assertEquals("unknown_field", innermost(byName).getDetails().get(0, Refusal.class, Refusal.class).code());

    TurnResult r = plane.client.turn(sid, "hello");
    assertEquals(1, r.turn());
    SessionSummary sum = stub.update("end", SessionSummary.class);
    assertEquals("end", sum.endReason());

    // The documented check for any client: the state Query answers on the closed session.
    SessionState st = stub.query("state", SessionState.class);
    assertTrue(st.ended());
    assertEquals("end", st.endReason());
    // Our client: "session SES-… has ended (end at …: ended by its user)", for a turn and for end.
    SessionEndedException turn = assertThrows(SessionEndedException.class, () -> plane.client.turn(sid, "again"));
    assertTrue(turn.getMessage().startsWith("session " + sid + " has ended (end at "), turn.getMessage());
    assertTrue(turn.getMessage().contains(": ended by its user)"), turn.getMessage());
    SessionEndedException end = assertThrows(SessionEndedException.class, () -> plane.client.end(sid));
    assertEquals("end", end.summary().endReason());
  }
}
