package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.ControlPlaneClient;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.SessionState;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WorkOrder;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import cp.model.ContractIds;
import cp.model.WorkOrderIds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The factory pattern (seed 001 Q6, FMWK-010): ADMIN and RESIDENT run the same workflows and
 * activities on one worker, each with its own configuration and its own HO2 memory; and the
 * session's memory is the ledger (seed 003), so it survives a worker restart.
 */
class AgentFactoryEndToEndTest {
  static final String PACKAGES = "what packages are installed?";

  @TempDir Path home;

  PlaneConfig config() {
    return PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "CP_PROVIDER", "offline"));
  }

  static ControlPlaneClient client(TemporalConnection conn, PlaneConfig cfg, PlaneRuntime rt) {
    return new ControlPlaneClient(conn.client(), cfg.worker().taskQueue(), rt.catalog().agentClasses(), 0);
  }

  static LedgerEntry first(LedgerStream l, String type, String sid) {
    return l.bySession(sid).stream().filter(e -> e.eventType().equals(type)).findFirst().orElseThrow();
  }

  /** The tool names offered in a session's synthesize EXCHANGE records. */
  static List<String> offeredTools(LedgerStream hot, String sid) {
    List<String> out = new ArrayList<>();
    for (LedgerEntry e : hot.bySession(sid)) {
      if (e.eventType().equals("EXCHANGE") && ContractIds.SYNTHESIZE.equals(e.metaText("contract_id"))) {
        e.meta("prompt").get("tools").forEach(t -> out.add(t.asText()));
        return out;
      }
    }
    throw new AssertionError("no synthesize exchange in " + sid);
  }

  // Seed 001 Q6 (factory: shared code, isolated state, FMWK-010 Invariant #7), seed 003 test 1
  // (SES- + 8 hex) and seed 003 "RESIDENT's narrower tools".
  @Test
  void adminAndResident_shareTheCode_butNotTheirConfigurationOrMemory() throws Exception {
    PlaneConfig cfg = config();
    String admin;
    String resident;
    TurnResult adminTurn;
    TurnResult residentTurn;
    SessionState adminState;
    SessionState residentState;
    try (PlaneRuntime rt = PlaneRuntime.open(cfg); TemporalConnection conn = TemporalConnection.open(cfg)) {
      conn.ensureSearchAttributes();
      try (PlaneWorker w = PlaneWorker.start(conn, rt, "factory")) {
        ControlPlaneClient c = client(conn, cfg, rt);
        admin = c.startSession("ADMIN");
        resident = c.startSession("RESIDENT");
        adminTurn = c.turn(admin, PACKAGES);
        residentTurn = c.turn(resident, PACKAGES);
        adminState = c.state(admin);
        residentState = c.state(resident);
        c.end(admin);
        c.end(resident);
      }
      assertTrue(WorkOrderIds.SESSION_ID.matcher(admin).matches(), admin);
      assertTrue(WorkOrderIds.SESSION_ID.matcher(resident).matches(), resident);
      assertEquals(TurnOutcome.SUCCESS, adminTurn.outcome());
      assertEquals(TurnOutcome.SUCCESS, residentTurn.outcome(), residentTurn.response());

      // Isolated state: one HO2 ledger per agent class, nothing of one in the other.
      assertTrue(Files.isRegularFile(home.resolve("HO2/ledger/ADMIN/workorder.jsonl")));
      assertTrue(Files.isRegularFile(home.resolve("HO2/ledger/RESIDENT/workorder.jsonl")));
      LedgerStream adminHo2 = rt.ledgers().ho2("ADMIN");
      LedgerStream residentHo2 = rt.ledgers().ho2("RESIDENT");
      assertFalse(adminHo2.readAll().isEmpty());
      assertFalse(residentHo2.readAll().isEmpty());
      for (LedgerEntry e : adminHo2.readAll()) {
        assertEquals(admin, e.sessionId(), e.toString());
      }
      for (LedgerEntry e : residentHo2.readAll()) {
        assertEquals(resident, e.sessionId(), e.toString());
        if (e.metaText("agent_class") != null) {
          assertEquals("RESIDENT", e.metaText("agent_class"));
        }
      }

      // Own budgets: in SESSION_START, in the session state and in SESSION_END.
      LedgerStream hot = rt.ledgers().hot();
      assertEquals(200_000, first(hot, "SESSION_START", admin).meta("session_token_limit").asLong());
      assertEquals(60_000, first(hot, "SESSION_START", resident).meta("session_token_limit").asLong());
      assertEquals(50, first(hot, "SESSION_START", admin).meta("turn_limit").asInt());
      assertEquals(20, first(hot, "SESSION_START", resident).meta("turn_limit").asInt());
      assertEquals(200_000, adminState.profile().sessionTokenLimit());
      assertEquals(60_000, residentState.profile().sessionTokenLimit());
      assertEquals(60_000 - residentState.tokensUsed(), residentState.tokensRemaining());
      LedgerEntry residentEnd = first(hot, "SESSION_END", resident);
      assertEquals(60_000, residentEnd.meta("token_limit").asLong());
      assertEquals(60_000 - residentState.tokensUsed(), residentEnd.meta("tokens_remaining").asLong());
      assertEquals(200_000, first(hot, "SESSION_END", admin).meta("token_limit").asLong());

      // Own attention templates.
      assertEquals("ATT-ADMIN-001", first(adminHo2, "ATTENTION_ASSEMBLED", admin).metaText("template_id"));
      assertEquals("ATT-RESIDENT-001", first(residentHo2, "ATTENTION_ASSEMBLED", resident).metaText("template_id"));

      // Own tools: RESIDENT is never offered list_packages, so it never calls it.
      assertEquals(List.of("list_packages"), adminTurn.toolCalls().stream().map(t -> t.toolName()).toList());
      assertTrue(residentTurn.toolCalls().isEmpty(), residentTurn.toolCalls().toString());
      assertTrue(rt.ledgers().ho1().bySession(resident).stream().noneMatch(e -> e.eventType().equals("TOOL_CALL")));
      assertTrue(offeredTools(hot, admin).contains("list_packages"));
      assertEquals(List.of("read_file", "query_ledger"), offeredTools(hot, resident));
      JsonNode plannedSynth = residentHo2.byEventType("WO_PLANNED").get(1).meta("work_order");
      assertEquals(List.of("read_file", "query_ledger"),
          Json.convert(plannedSynth, WorkOrder.class).constraints().allowedTools());
      assertEquals("admin-001", first(hot, "EXCHANGE", admin).metaText("agent_id"));
      assertEquals("resident-001", first(hot, "EXCHANGE", resident).metaText("agent_id"));
    }
  }

  // Seed 003 principle 5 / test 8 (prior turns in the prompt) and seed 002 (HO2 owns history):
  // the conversation comes from the ledger, so a new worker with new activities still has it.
  @Test
  void conversationHistory_comesFromTheLedger_andSurvivesAWorkerRestart() {
    PlaneConfig cfg = config();
    try (TemporalConnection conn = TemporalConnection.open(cfg)) {
      conn.ensureSearchAttributes();
      String sid;
      try (PlaneRuntime rt = PlaneRuntime.open(cfg); PlaneWorker w = PlaneWorker.start(conn, rt, "before")) {
        ControlPlaneClient c = client(conn, cfg, rt);
        sid = c.startSession("ADMIN");
        assertEquals(TurnOutcome.SUCCESS, c.turn(sid, "hello, my name is Ada").outcome());
      }
      try (PlaneRuntime rt = PlaneRuntime.open(cfg); PlaneWorker w = PlaneWorker.start(conn, rt, "after")) {
        ControlPlaneClient c = client(conn, cfg, rt);
        TurnResult second = c.turn(sid, "what is my name?");
        assertEquals(TurnOutcome.SUCCESS, second.outcome());
        assertEquals(2, second.turn());
        LedgerEntry synth = rt.ledgers().hot().bySession(sid).stream()
            .filter(e -> e.eventType().equals("EXCHANGE"))
            .filter(e -> ContractIds.SYNTHESIZE.equals(e.metaText("contract_id")))
            .filter(e -> WorkOrderIds.turnOf(e.workOrderId()) == 2)
            .findFirst().orElseThrow();
        String prompt = synth.meta("prompt").at("/messages/0/content/0/text").asText();
        assertTrue(prompt.contains("[turn 1] User: hello, my name is Ada"),
            "turn 2's synthesize prompt carries turn 1 from the ledger: " + prompt);
        assertTrue(prompt.contains("[turn 1] Assistant: "), prompt);
        c.end(sid);
      }
    }
  }
}
