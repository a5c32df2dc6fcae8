package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.SchemaValidator;
import cp.model.AgentProfile;
import cp.model.Json;
import cp.model.Refusal;
import cp.model.SessionInput;
import cp.model.SessionState;
import cp.model.TurnOutcome;
import cp.model.WoState;
import cp.model.WoType;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 4: the JSON Schemas of the client contract (docs/client-contract.md), shipped under
 * {@code api/schemas/}, are true of what the real workflows send and receive. Every payload is read
 * as a foreign client reads it: an untyped stub, the plane's data converter, the raw JSON tree.
 * And the schemas refuse what the workflow refuses, so a client that validates first is not
 * surprised.
 */
class ClientContractSchemaTest {
  static final String SID = "SES-5c4e3a01";
  static final List<String> SCHEMAS = List.of("session_input", "turn_request", "turn_result", "session_summary",
      "session_state", "refusal", "turn_progress", "approval_decision", "approval_result", "pending_approval",
      "agent_classes", "turn_event_page");
  static final SchemaValidator VALIDATOR = new SchemaValidator();

  FakeActivities.Ho1 ho1;
  FakeActivities.Session session;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    session = new FakeActivities.Session();
    h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session, 600, false, java.util.Optional.empty());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  /** The schema {@code name} as shipped on the classpath. */
  static JsonNode schema(String name) {
    String path = "api/schemas/" + name + ".schema.json";
    try (InputStream in = ClientContractSchemaTest.class.getClassLoader().getResourceAsStream(path)) {
      assertNotNull(in, path + " is not on the classpath");
      return Json.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new IllegalStateException(path + ": " + e.getMessage(), e);
    }
  }

  static void assertValid(String schema, JsonNode instance) {
    List<String> v = VALIDATOR.validate(schema(schema), instance);
    assertTrue(v.isEmpty(), schema + " refuses " + instance + ": " + v);
  }

  static void assertInvalid(String schema, JsonNode instance) {
    assertFalse(VALIDATOR.validate(schema(schema), instance).isEmpty(), schema + " accepts " + instance);
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private WorkflowStub foreign(String workflowId) {
    return h.client.newUntypedWorkflowStub("SessionWorkflow", WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(workflowId).build());
  }

  private WorkflowStub started(String sid) {
    WorkflowStub stub = foreign(sid);
    Map<String, Object> input = map("session_id", sid, "agent_class", "ADMIN");
    assertValid("session_input", Json.tree(input));
    stub.start(input);
    return stub;
  }

  private static ApplicationFailure innermost(Throwable e) {
    ApplicationFailure af = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure a) {
        af = a;
      }
    }
    assertNotNull(af, "no ApplicationFailure in " + SessionContractTest.chain(e));
    return af;
  }

  /** details[0] of the refusal of {@code arg} as a turn, as a foreign client reads it, checked against refusal. */
  private JsonNode turnRefusal(WorkflowStub stub, Object arg) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class,
        () -> stub.update("turn", JsonNode.class, arg));
    ApplicationFailure af = innermost(e);
    assertEquals(Refusal.TURN_REFUSED, af.getType());
    JsonNode details = af.getDetails().get(0, JsonNode.class, JsonNode.class);
    assertValid("refusal", details);
    return details;
  }

  @Test
  void everySchemaIsAValidDraft2020_12Schema() {
    for (String name : SCHEMAS) {
      JsonNode s = schema(name);
      assertEquals(SchemaValidator.META_SCHEMA_IRI, s.path("$schema").asText(), name);
      assertEquals(name, s.path("title").asText(), name);
      assertEquals(List.of(), VALIDATOR.schemaProblems(s), name);
    }
  }

  @Test
  void aSessionsPayloads_asAForeignClientReceivesThem_matchTheSchemas() throws Exception {
    AtomicInteger round = new AtomicInteger();
    ho1.synthesize = r -> round.incrementAndGet() == 1
        ? ho1.toolUse("list_packages", Json.object())
        : ho1.text("{\"response_text\":\"3 packages\"}");
    WorkflowStub stub = started(SID);

    JsonNode stateBefore = stub.query("state", JsonNode.class);
    assertValid("session_state", stateBefore);

    Map<String, Object> request = map("text", "what packages are installed?");
    assertValid("turn_request", Json.tree(request));
    JsonNode turn = stub.update("turn", JsonNode.class, request);
    assertValid("turn_result", turn);
    assertEquals("success", turn.path("outcome").asText());
    assertEquals(1, turn.path("tool_calls").size(), "the tool loop's call is in the result: " + turn);
    assertTrue(turn.has("trace_hash"));
    assertFalse(turn.has("error_code"), "null fields are left out: " + turn);

    JsonNode state = stub.query("state", JsonNode.class);
    assertValid("session_state", state);
    assertEquals(1, state.path("turns").asInt());
    assertEquals("success", state.path("last_outcome").asText());
    assertFalse(state.has("end_reason"), "open session: " + state);

    JsonNode summary = stub.update("end", JsonNode.class);
    assertValid("session_summary", summary);
    assertEquals("end", summary.path("end_reason").asText());
    assertValid("session_summary", stub.getResult(5, TimeUnit.SECONDS, JsonNode.class));

    JsonNode closed = stub.query("state", JsonNode.class);
    assertValid("session_state", closed);
    assertTrue(closed.path("ended").asBoolean());
    assertEquals("end", closed.path("end_reason").asText());
    // The documented check: the service itself refuses an Update on the closed session (not found),
    // and the state Query above says why.
    assertThrows(io.temporal.client.WorkflowNotFoundException.class,
        () -> stub.update("turn", JsonNode.class, map("text", "hello again")));
    assertEquals(io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED,
        stub.describe().getStatus());
  }

  @Test
  void stateBeforeTheProfileIsLoaded_isNull_whichTheSchemaAllows() {
    assertValid("session_state", Json.MAPPER.nullNode());
    WorkflowStub stub = foreign("SES-5c4e3a02");
    stub.start(map("session_id", "SES-5c4e3a02"));
    assertThrows(WorkflowFailedException.class, () -> stub.getResult(5, TimeUnit.SECONDS, JsonNode.class));
    JsonNode state = stub.query("state", JsonNode.class);
    assertTrue(state == null || state.isNull(), "a refused start has no state: " + state);
  }

  @Test
  void degradedAndErrorTurns_matchTheSchema() {
    WorkflowStub stub = started(SID);
    ho1.failGateway = true;
    JsonNode degraded = stub.update("turn", JsonNode.class, map("text", "hello"));
    assertValid("turn_result", degraded);
    assertEquals(TurnOutcome.DEGRADED, degraded.path("outcome").asText());
    ho1.failDegraded = true;
    JsonNode error = stub.update("turn", JsonNode.class, map("text", "hello"));
    assertValid("turn_result", error);
    assertEquals(TurnOutcome.ERROR, error.path("outcome").asText());
    assertValid("session_state", stub.query("state", JsonNode.class));
    assertValid("session_summary", stub.update("end", JsonNode.class));
  }

  @Test
  void aTurnPastItsDeadline_matchesTheSchema_andItsProgressQueryToo() throws Exception {
    session.profile = FakeActivities.profile(100_000, 50).withTurnTimeoutSeconds(3);
    ho1.hangSynthesize = new CountDownLatch(1);
    WorkflowStub stub = started(SID);
    CompletableFuture<JsonNode> turn = CompletableFuture.supplyAsync(
        () -> stub.update("turn", JsonNode.class, map("text", "hello")));
    WorkflowStub child = h.client.newUntypedWorkflowStub(SID + "/turn-0001");
    List<String> seen = new ArrayList<>();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!turn.isDone() && System.nanoTime() < until) {
      try {
        JsonNode progress = child.query("progress", JsonNode.class);
        assertValid("turn_progress", progress);
        if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(progress.asText())) {
          seen.add(progress.asText());
        }
      } catch (io.temporal.client.WorkflowNotFoundException | io.temporal.client.WorkflowQueryException e) {
        // the child is not there yet
      }
      Thread.sleep(50);
    }
    assertTrue(seen.stream().anyMatch(s -> s.startsWith("synthesize")), "progress seen: " + seen);
    JsonNode r = turn.get(20, TimeUnit.SECONDS);
    assertValid("turn_result", r);
    assertEquals("turn_deadline_exceeded", r.path("error_code").asText());
    assertFalse(r.has("trace_hash"), r.toString());
  }

  @Test
  void aSessionEndedByItsTurnLimit_summaryAndStateMatchTheSchemas() throws Exception {
    session.profile = FakeActivities.profile(100_000, 1);
    WorkflowStub stub = started(SID);
    assertValid("turn_result", stub.update("turn", JsonNode.class, map("text", "hello")));
    JsonNode result = stub.getResult(10, TimeUnit.SECONDS, JsonNode.class);
    assertValid("session_summary", result);
    assertEquals("turn_limit", result.path("end_reason").asText());
    JsonNode state = stub.query("state", JsonNode.class);
    assertValid("session_state", state);
    assertEquals("turn_limit", state.path("end_reason").asText());
  }

  @Test
  void refusalsOfTurns_matchTheSchema_andTheSchemaRefusesWhatTheWorkflowRefuses() {
    WorkflowStub stub = started(SID);
    Object[][] cases = {
        {map("message", "hi"), "unknown_field"},
        {map("text", "hi", "message", "x"), "unknown_field"},
        {42, "wrong_type"},
        {"hello", "wrong_type"},
        {map("text", 7), "wrong_type"},
        {map(), "empty_text"},
        {map("text", "   "), "empty_text"},
        {map("text", "ring \u0007 bell"), "control_character"},
        {map("text", "x".repeat(1001)), "text_too_long"},
        {map("text", "half \uD800 pair"), "invalid_unicode"},
    };
    for (Object[] c : cases) {
      JsonNode details = turnRefusal(stub, c[0]);
      assertEquals(c[1], details.path("code").asText(), "refusal of " + c[0]);
      if (!"text_too_long".equals(c[1]) && !"invalid_unicode".equals(c[1])) {
        // The schema cannot know the agent's byte limit, and JSON text cannot hold an unpaired surrogate
        // once it is UTF-8; every other refused shape the schema refuses too.
        assertInvalid("turn_request", Json.tree(c[0]));
      }
    }
    assertEquals(1, stub.update("turn", JsonNode.class, map("text", "tab\tand\nnewline")).path("turn").asInt(),
        "tab and newline are allowed");
    assertValid("turn_request", Json.tree(map("text", "tab\tand\nnewline")));
  }

  @Test
  void theLimitsRefusals_matchTheSchema() {
    session.profile = new AgentProfile("ADMIN", "admin-001", "FMWK-005", "ATT-ADMIN-001", List.of(), 150, 50, 7200,
        1800, 4000, 3, 120, 1000, 2, 200);
    WorkflowStub stub = started(SID);
    stub.update("turn", JsonNode.class, map("text", "hello"));
    assertEquals("budget_exhausted", turnRefusal(stub, map("text", "again")).path("code").asText());
  }

  @Test
  void aTurnWhileAnExpiredSessionIsStillWritingItsEnd_isRefusedAsEnded() throws Exception {
    session.profile = new AgentProfile("ADMIN", "admin-001", "FMWK-005", "ATT-ADMIN-001", List.of(), 100_000, 50,
        7200, 1, 4000, 3, 120, 1000, 2, 200);
    session.failSessionEndWrites.set(1_000_000);
    WorkflowStub stub = started(SID);
    // No turn for longer than the 1 s idle timeout: the session expires, and its SESSION_END keeps failing.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (session.failSessionEndWrites.get() == 1_000_000
        && System.nanoTime() < until) {
      Thread.sleep(100);
    }
    JsonNode details = turnRefusal(stub, map("text", "hello"));
    assertEquals("session_ended", details.path("code").asText());
    assertFalse(details.has("reason"), "no end_reason while SESSION_END is being written: " + details);
  }

  @Test
  void startRefusals_matchTheSchema_andTheSchemaRefusesWhatTheWorkflowRefuses() {
    session.knownClasses = List.of("ADMIN", "RESIDENT");
    Object[][] cases = {
        {"SES-00000001", map("session_id", "SES-00000001"), "missing_field"},
        {"SES-00000002", map("session_id", "SES-00000002", "agent_class", "admin"), "invalid_agent_class"},
        {"SES-00000003", map("session_id", "SES-00000003", "agent_class", "ROOT"), "unknown_agent_class"},
        {"SES-00000004", map("session_id", "SES-99999999", "agent_class", "ADMIN"), "workflow_id_mismatch"},
        {"chat-1", map("session_id", "chat-1", "agent_class", "ADMIN"), "invalid_session_id"},
        {"SES-00000005", map("session_id", "SES-00000005", "agent_class", 42), "wrong_type"},
        {"SES-00000006", map("session_id", "SES-00000006", "agent_class", "ADMIN", "agent", "x"), "unknown_field"},
        {"SES-00000007", map("session_id", "SES-00000007", "agent_class", "ADMIN", "continue_as_new_after_turns", -1),
            "wrong_type"},
        {"SES-00000008", "hello", "wrong_type"},
    };
    for (Object[] c : cases) {
      WorkflowStub stub = foreign((String) c[0]);
      stub.start(c[1]);
      WorkflowFailedException e = assertThrows(WorkflowFailedException.class,
          () -> stub.getResult(5, TimeUnit.SECONDS, JsonNode.class));
      ApplicationFailure af = innermost(e);
      assertEquals(Refusal.START_REFUSED, af.getType());
      JsonNode details = af.getDetails().get(0, JsonNode.class, JsonNode.class);
      assertValid("refusal", details);
      assertEquals(c[2], details.path("code").asText(), "start refusal of " + c[1]);
      if (!"unknown_agent_class".equals(c[2]) && !"workflow_id_mismatch".equals(c[2])) {
        // The catalog and the workflow id are not in the payload; every other refused start the schema refuses.
        assertInvalid("session_input", Json.tree(c[1]));
      }
    }
  }

  @Test
  void ourClientsStartInput_andAContinueAsNewInput_matchTheSchema() {
    assertValid("session_input", Json.tree(new SessionInput(SID, "ADMIN", null, 0)));
    assertValid("session_input", Json.tree(new SessionInput(SID, "ADMIN", null, 100)));
    SessionState carried = new SessionState(SID, "ADMIN", FakeActivities.profile(100_000, 50), 3, 600, 99_400, 0.006,
        "success", false, null, 1_795_451_828_972L, 2, 0);
    assertValid("session_state", Json.tree(carried));
    assertValid("session_input", Json.tree(new SessionInput(SID, "ADMIN", carried, 100)));
  }

  @Test
  void theSchemas_listEveryCodeAndEnumTheCodeHas() {
    assertEquals(Arrays.stream(Refusal.Code.values()).map(Refusal.Code::wire).collect(Collectors.toCollection(TreeSet::new)),
        enumOf(schema("refusal").at("/properties/code")));
    assertEquals(Set.of(TurnOutcome.SUCCESS, TurnOutcome.ESCALATED, TurnOutcome.DEGRADED, TurnOutcome.ERROR),
        enumOf(schema("turn_result").at("/properties/outcome")));
    assertEquals(Arrays.stream(WoType.values()).map(WoType::wireName).collect(Collectors.toSet()),
        enumOf(schema("turn_result").at("/$defs/wo_summary/properties/wo_type")));
    assertEquals(Arrays.stream(WoState.values()).map(WoState::wireName).collect(Collectors.toSet()),
        enumOf(schema("turn_result").at("/$defs/wo_summary/properties/state")));
    assertEquals(SessionInput.FIELDS, fields(schema("session_input")));
    assertEquals(Set.of("text"), fields(schema("turn_request")));
    assertEquals(fields(Json.tree(carriedRecordShape())), fields(schema("session_state")));
  }

  /** A SessionState with every field set, so its JSON names them all. */
  private static SessionState carriedRecordShape() {
    return new SessionState(SID, "ADMIN", FakeActivities.profile(1, 1), 1, 1, 1, 1, "success", true, "end", 1, 1, 1,
        List.of(new cp.model.PendingApproval("APR-5c4e3a01-0001-02-1-1", SID, 1, SID + "/turn-0001",
            "WO-5c4e3a01-0001-02", "write_file", "tu-1", "HO2/x.md (1 bytes, 1 line, mode create)", "t", "t", 1, "deny",
            "LED-1")));
  }

  // ------------------------------------------------------------------ issue 15: approvals

  @Test
  void anApproval_asAForeignClientSeesAndDecidesIt_matchesTheSchemas() throws Exception {
    AgentProfile p = FakeActivities.profile(100_000, 50);
    session.profile = p.withApprovals(List.of(new cp.model.ToolApproval("write_file", 600, false)));
    AtomicInteger round = new AtomicInteger();
    ho1.synthesize = r -> round.incrementAndGet() == 1
        ? ho1.toolUse("write_file", Json.parse("{\"path\":\"HO2/x.md\",\"content\":\"hi\"}"))
        : ho1.text("{\"response_text\":\"written\"}");
    WorkflowStub stub = started(SID);
    CompletableFuture<JsonNode> turn = CompletableFuture.supplyAsync(
        () -> stub.update("turn", JsonNode.class, map("text", "write it")));
    JsonNode state = null;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < until) {
      state = stub.query("state", JsonNode.class);
      if (state != null && state.path("pending_approvals").size() > 0) {
        break;
      }
      Thread.sleep(50);
    }
    assertValid("session_state", state);
    JsonNode pending = state.path("pending_approvals").get(0);
    assertValid("pending_approval", pending);
    assertEquals(schema("pending_approval").path("properties"),
        schema("session_state").at("/$defs/pending_approval/properties"), "session_state's copy is the schema");

    Map<String, Object> unknown = map("approval_id", "APR-00000000-0001-02-1-9", "decision", "grant", "decided_by", "x");
    assertValid("approval_decision", Json.tree(unknown));
    JsonNode refusal = approvalRefusal(stub, unknown);
    assertEquals("unknown_approval", refusal.path("code").asText());
    Map<String, Object> maybe = map("approval_id", pending.path("approval_id").asText(), "decision", "maybe",
        "decided_by", "x");
    assertInvalid("approval_decision", Json.tree(maybe));
    assertEquals("invalid_decision", approvalRefusal(stub, maybe).path("code").asText());

    Map<String, Object> grant = map("approval_id", pending.path("approval_id").asText(), "decision", "grant",
        "decided_by", "alice", "reason", "fine");
    assertValid("approval_decision", Json.tree(grant));
    JsonNode result = stub.update(SessionWorkflow.APPROVE, JsonNode.class, grant);
    assertValid("approval_result", result);
    assertEquals("granted", result.path("decision").asText());
    assertValid("turn_result", turn.get(20, TimeUnit.SECONDS));
    assertEquals("already_decided", approvalRefusal(stub, grant).path("code").asText());
    assertInvalid("approval_result", Json.object().put("approval_id", "x").put("decision", "maybe"));
  }

  private JsonNode approvalRefusal(WorkflowStub stub, Object arg) {
    WorkflowUpdateException e = assertThrows(WorkflowUpdateException.class,
        () -> stub.update(SessionWorkflow.APPROVE, JsonNode.class, arg));
    ApplicationFailure af = innermost(e);
    assertEquals(Refusal.APPROVAL_REFUSED, af.getType());
    JsonNode details = af.getDetails().get(0, JsonNode.class, JsonNode.class);
    assertValid("refusal", details);
    return details;
  }

  @Test
  void theSchemasRefuseObviouslyWrongResults() {
    assertInvalid("turn_result", Json.parse("{\"response\":\"hi\",\"session_id\":\"SES-1a2b3c4d\",\"turn\":1}"));
    assertInvalid("refusal", Json.parse("{\"code\":\"nope\"}"));
    assertInvalid("refusal", Json.parse("{\"code\":\"empty_text\",\"extra\":1}"));
    assertInvalid("session_summary", Json.parse("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":\"ADMIN\","
        + "\"turns\":1,\"tokens_used\":1,\"token_limit\":1,\"cost\":0,\"degraded_turns\":0,\"end_reason\":\"bored\"}"));
    assertInvalid("session_state", Json.parse("[]"));
    assertInvalid("turn_progress", Json.parse("{\"step\":\"done\"}"));
    assertInvalid("session_input", Json.parse("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":\"ADMIN\","
        + "\"continue_as_new_after_turns\":1.5}"));
  }

  private static Set<String> enumOf(JsonNode node) {
    assertTrue(node.path("enum").isArray(), "no enum at " + node);
    Set<String> out = new TreeSet<>();
    node.path("enum").forEach(v -> out.add(v.asText()));
    return out;
  }

  private static Set<String> fields(JsonNode objectOrSchema) {
    JsonNode props = objectOrSchema.has("properties") && objectOrSchema.has("$schema")
        ? objectOrSchema.get("properties") : objectOrSchema;
    Set<String> out = new TreeSet<>();
    props.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
