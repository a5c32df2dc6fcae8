package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.AgentProfile;
import cp.model.Json;
import cp.model.SessionEvent;
import cp.worker.TemporalOptions;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import io.temporal.testing.TestEnvironmentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session host's activities: the agent configuration it hands the workflows (seed 002 test 9,
 * seed 001 Q6: the factory's per-class config) and the token accounting of a failed turn.
 */
class SessionActivitiesImplTest {
  static final String SID = "SES-0000cafe";

  @TempDir Path home;
  Ledgers ledgers;
  Catalog catalog = Catalog.loadDefault();
  SessionActivitiesImpl session;

  @BeforeEach
  void setUp() {
    ledgers = Ledgers.open(home);
    session = new SessionActivitiesImpl(catalog, ledgers, cp.activities.ActivityContextSource.TEMPORAL,
        cp.observability.Telemetry.NOOP);
  }

  @AfterEach
  void tearDown() {
    ledgers.close();
  }

  static void assertMapsTheConfig(AgentConfig a, AgentProfile p) {
    assertEquals(a.agentClass(), p.agentClass());
    assertEquals(a.agentId(), p.agentId());
    assertEquals(a.frameworkId(), p.frameworkId());
    assertEquals(a.attentionTemplateId(), p.attentionTemplateId());
    assertEquals(a.toolIds(), p.toolIds());
    assertEquals(a.budget().sessionTokenLimit(), p.sessionTokenLimit());
    assertEquals(a.budget().turnLimit(), p.turnLimit());
    assertEquals(a.budget().timeoutSeconds(), p.timeoutSeconds());
    assertEquals(a.budget().idleTimeoutSeconds(), p.idleTimeoutSeconds());
    assertEquals(a.budget().woTokenBudget(), p.woTokenBudget());
    assertEquals(a.budget().woTurnLimit(), p.woTurnLimit());
    assertEquals(a.budget().maxMessageBytes(), p.maxMessageBytes());
    assertEquals(a.qualityGate().maxRetries(), p.maxRetries());
    assertEquals(a.qualityGate().maxResponseChars(), p.maxResponseChars());
    assertEquals(SessionActivitiesImpl.WO_TIMEOUT_SECONDS, p.woTimeoutSeconds());
  }

  // Seed 002 test 9 (agent config passed through) and seed 001 Q6 (ADMIN's own budget and template).
  @Test
  void profile_mapsTheAdminConfigurationFaithfully() {
    AgentProfile p = session.profile("ADMIN");
    assertMapsTheConfig(catalog.agent("ADMIN"), p);
    assertEquals("ATT-ADMIN-001", p.attentionTemplateId());
    assertEquals(200_000, p.sessionTokenLimit());
    assertEquals(50, p.turnLimit());
    assertEquals(List.of("gate_check", "read_file", "query_ledger", "list_packages", "write_file"), p.toolIds());
    assertEquals(List.of(new cp.model.ToolApproval("write_file", 240, false)), p.approvals(),
        "issue 15: write_file waits for a person, 240 s, denied on timeout; the read tools do not wait");
    assertEquals(List.of(), session.profile("RESIDENT").approvals(), "RESIDENT has no tool that waits");
  }

  // Seed 001 Q6: RESIDENT runs the same code with its own, narrower configuration.
  @Test
  void profile_mapsTheResidentConfigurationFaithfully_ignoringCase() {
    AgentProfile p = session.profile("resident");
    assertMapsTheConfig(catalog.agent("RESIDENT"), p);
    assertEquals("RESIDENT", p.agentClass());
    assertEquals("ATT-RESIDENT-001", p.attentionTemplateId());
    assertEquals(60_000, p.sessionTokenLimit());
    assertEquals(List.of("read_file", "query_ledger"), p.toolIds());
  }

  // STYLE: permanent failures are explicit: an unknown class is an unknown_agent_class no retry can fix
  // (issue 12: the session turns it into start_refused naming the class).
  /**
   * Issue 20: the profile says what the agent's smallest call reserves, the classify prompt for an
   * empty message (estimated as the gateway estimates) plus the classify contract's max_tokens, so
   * the session can refuse a turn it cannot pay for before anything runs.
   */
  @Test
  void profile_knowsWhatItsSmallestCallReserves() {
    for (String cls : List.of("ADMIN", "RESIDENT")) {
      AgentProfile p = session.profile(cls);
      var classify = catalog.contract(cp.model.ContractIds.CLASSIFY);
      var prompt = new cp.contracts.PromptRenderer().render(catalog.promptPack(classify.promptPackId()),
          cp.model.Json.object().put("user_input", ""), catalog.agent(cls));
      long estimate = cp.gateway.TokenEstimate.ofChars(prompt.system().length() + prompt.user().length());
      assertEquals(estimate + classify.boundary().maxTokens(), p.smallestCallTokens(), cls);
      assertTrue(p.smallestCallTokens() > classify.boundary().maxTokens() + 100, cls + ": the prompt counts too");
    }
  }

  @Test
  void profile_ofAnUnknownClass_isANonRetryableUnknownAgentClass() {
    ApplicationFailure f = assertThrows(ApplicationFailure.class, () -> session.profile("NOBODY"));
    assertEquals("unknown_agent_class", f.getType());
    assertTrue(f.isNonRetryable());
    assertTrue(f.getOriginalMessage().contains("NOBODY"), f.getOriginalMessage());
    assertTrue(f.getOriginalMessage().contains("known: ADMIN, RESIDENT"), f.getOriginalMessage());
    assertTrue(TemporalOptions.NON_RETRYABLE_TYPES.contains(f.getType()));
  }

  void exchange(String sid, String workflowId, Long in, Long out) {
    ObjectNode m = Json.object().put("session_id", sid).put("workflow_id", workflowId);
    if (in != null) {
      m.put("input_tokens", in).put("output_tokens", out);
    }
    ledgers.hot().write(LedgerEntry.builder("EXCHANGE").metadata(m).build());
  }

  // Seed 003 test 21 (budget tracked across turns): a failed turn's spend is what its own
  // workflow's EXCHANGE records cost, nothing else.
  @Test
  void turnSpend_sumsOnlyThatTurnWorkflowsExchangeTokens() {
    String turn2 = SID + "/turn-0002";
    exchange(SID, SID + "/turn-0001", 100L, 50L);
    exchange(SID, turn2, 30L, 20L);
    exchange(SID, turn2, 7L, 3L);
    exchange(SID, turn2, null, null);
    exchange(SID, SID + "/turn-00020", 1000L, 1000L);
    exchange(SID, SID, 500L, 500L);
    ObjectNode notAnExchange = Json.object().put("session_id", SID).put("workflow_id", turn2)
        .put("input_tokens", 999).put("output_tokens", 999);
    ledgers.hot().write(LedgerEntry.builder("PROMPT_REJECTED").metadata(notAnExchange).build());
    assertEquals(60, session.turnSpend(SID, turn2));
    assertEquals(0, session.turnSpend(SID, SID + "/turn-0003"));
    assertEquals(0, session.turnSpend("SES-0000beef", turn2), "only the given session's records");
  }

  // Seed 002 test 7 / seed 003 tests 2-3: session events go to the HOT ledger once per session
  // and key, whatever the run (continue-as-new starts new runs of the same session).
  @Test
  void record_writesSessionEventsToHot_oncePerSessionAndKey() {
    TestActivityEnvironment env = TestActivityEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .build())
        .build());
    try {
      env.registerActivitiesImplementations(session);
      SessionActivities stub = env.newActivityStub(SessionActivities.class,
          ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build());
      SessionEvent start = new SessionEvent("SESSION_START", "SESSION_START", SID, "STARTED", "session started",
          Json.object().put("agent_class", "ADMIN").put("session_token_limit", 200_000));
      String first = stub.record(start);
      String again = stub.record(start);
      assertEquals(first, again);
      List<LedgerEntry> hot = ledgers.hot().readAll();
      assertEquals(1, hot.size());
      LedgerEntry e = hot.get(0);
      assertEquals("SESSION_START", e.eventType());
      assertEquals(SID, e.submissionId());
      assertEquals(SID, e.sessionId());
      assertEquals("hot", e.metaText("tier"));
      assertEquals(200_000, e.meta("session_token_limit").asLong());
    } finally {
      env.close();
    }
  }

  /**
   * Issue 12: an activity implementation learns its identity from the ActivityContextSource it was
   * built with, so code outside Temporal (the benchmark) runs it with no worker and no
   * thread-local switch; the idempotency key comes from that identity.
   */
  @Test
  void record_outsideTemporal_takesItsIdentityFromTheInjectedContextSource() {
    ActivityContextSource fixed = new ActivityContextSource() {
      @Override
      public ActivityIdentity identity() {
        return new ActivityIdentity(SID, "run-1", "7", 1, false);
      }

      @Override
      public <T> T heartbeating(java.util.concurrent.Callable<T> call) throws Exception {
        return call.call();
      }
    };
    SessionActivitiesImpl direct = new SessionActivitiesImpl(catalog, ledgers, fixed, cp.observability.Telemetry.NOOP);
    SessionEvent start = new SessionEvent("SESSION_START", "SESSION_START", SID, "STARTED", "started",
        Json.object().put("agent_class", "ADMIN"));

    String first = direct.record(start);
    String again = direct.record(start);

    assertEquals(first, again, "the same identity and key: written once");
    assertEquals(1, ledgers.hot().byEventType("SESSION_START").size());
  }
}
