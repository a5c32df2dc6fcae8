package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.activities.TraceHash;
import cp.client.ControlPlaneClient;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "done when": a session with two turns ("hello", then a question that needs a
 * tool) on the in-process Temporal service with the offline provider writes every HOT, HO2m and
 * HO1m event once, with the fields that link them.
 */
class SessionEndToEndTest {
  @TempDir Path home;

  static Map<String, Long> counts(LedgerStream l) {
    return l.readAll().stream().collect(Collectors.groupingBy(LedgerEntry::eventType, Collectors.counting()));
  }

  @Test
  void helloThenAToolQuestion_writesEveryEventOnce() {
    PlaneConfig cfg = PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "CP_PROVIDER", "offline"));
    String sid;
    TurnResult hello;
    TurnResult tool;
    try (PlaneRuntime rt = PlaneRuntime.open(cfg); TemporalConnection conn = TemporalConnection.open(cfg)) {
      conn.ensureSearchAttributes();
      try (PlaneWorker w = PlaneWorker.start(conn, rt, "e2e")) {
        ControlPlaneClient c = new ControlPlaneClient(conn.client(), cfg.worker().taskQueue(),
            rt.catalog().agentClasses(), 0);
        sid = c.startSession("ADMIN");
        hello = c.turn(sid, "hello");
        tool = c.turn(sid, "what packages are installed?");
        c.end(sid);
      }
      assertEquals(TurnOutcome.SUCCESS, hello.outcome());
      assertTrue(hello.qualityGatePassed());
      assertEquals(TurnOutcome.SUCCESS, tool.outcome());
      assertEquals(1, tool.toolCalls().size());
      assertEquals("list_packages", tool.toolCalls().get(0).toolName());
      assertTrue(tool.response().contains("PRC-CLASSIFY-001"), "the answer uses the tool result: " + tool.response());

      LedgerStream hot = rt.ledgers().hot();
      LedgerStream ho2 = rt.ledgers().ho2("ADMIN");
      LedgerStream ho1 = rt.ledgers().ho1();
      assertEquals(Map.of("SESSION_START", 1L, "EXCHANGE", 5L, "SESSION_END", 1L), counts(hot));
      assertEquals(Map.of("WO_PLANNED", 4L, "WO_DISPATCHED", 4L, "ATTENTION_ASSEMBLED", 2L, "WO_QUALITY_GATE", 2L,
          "WO_CHAIN_COMPLETE", 2L), counts(ho2));
      assertEquals(Map.of("WO_EXECUTING", 4L, "LLM_CALL", 5L, "TOOL_CALL", 1L, "WO_COMPLETED", 4L), counts(ho1));

      for (LedgerStream l : List.of(hot, ho2, ho1)) {
        assertTrue(l.verify().ok(), l.location() + ": " + l.verify().reason());
        List<String> keys = l.readAll().stream().map(LedgerEntry::idempotencyKey).filter(k -> k != null).toList();
        assertEquals(keys.size(), keys.stream().distinct().count(), "no key twice in " + l.location());
      }
      for (LedgerEntry ex : hot.byEventType("EXCHANGE")) {
        assertEquals(sid, ex.sessionId());
        assertNotNull(ex.metaText("workflow_id"));
        assertNotNull(ex.metaText("run_id"));
        assertNotNull(ex.metaText("activity_id"));
        assertEquals("offline-rules-1", ex.metaText("model_id"));
        assertTrue(!ex.metaText("response").isEmpty() || ex.meta("response_blocks") != null,
            "an exchange records the text or the tool_use blocks");
      }
      for (LedgerEntry e : ho1.readAll()) {
        assertEquals("ho1", e.metaText("tier"));
        assertEquals(sid, e.sessionId());
        assertNotNull(e.workOrderId());
      }
      List<LedgerEntry> chains = ho2.byEventType("WO_CHAIN_COMPLETE");
      LedgerEntry second = chains.get(1);
      List<String> wos = tool.woChainSummary().stream().map(w -> w.woId()).toList();
      assertEquals(TraceHash.of(ho1, sid, wos), second.metaText("trace_hash"));
      assertEquals(tool.traceHash(), second.metaText("trace_hash"));
      assertEquals(second.metaText("trace_hash"), second.meta("context_fingerprint").get("context_hash").asText());

      LedgerEntry attention = ho2.byEventType("ATTENTION_ASSEMBLED").get(1);
      assertTrue(attention.metaText("context").contains("hello"),
          "turn 2's context holds turn 1's conversation, rebuilt from EXCHANGE records: " + attention.metaText("context"));
      assertEquals(1, attention.meta("prior_turns").asInt());
    }
  }
  // Issue 11 item 5 (seed 001 Q4: the horizontal scan reads HO1m): the turn after a tool call sees that
  // turn's work orders as compact execution lines (id, type, tools, tokens, cost), not their transcripts.
  @Test
  void aTurnAfterAToolCall_seesTheEarlierWorkOrderExecutionsAsCompactLines() {
    PlaneConfig cfg = PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "CP_PROVIDER", "offline"));
    try (PlaneRuntime rt = PlaneRuntime.open(cfg); TemporalConnection conn = TemporalConnection.open(cfg)) {
      conn.ensureSearchAttributes();
      TurnResult tool;
      try (PlaneWorker w = PlaneWorker.start(conn, rt, "e2e")) {
        ControlPlaneClient c = new ControlPlaneClient(conn.client(), cfg.worker().taskQueue(),
            rt.catalog().agentClasses(), 0);
        String sid = c.startSession("ADMIN");
        tool = c.turn(sid, "what packages are installed?");
        c.turn(sid, "hello");
        c.end(sid);
      }
      assertEquals("list_packages", tool.toolCalls().get(0).toolName());
      String synthWo = tool.woChainSummary().stream().filter(w -> w.woType().equals("synthesize"))
          .map(w -> w.woId()).findFirst().orElseThrow();
      LedgerStream ho1 = rt.ledgers().ho1();
      LedgerEntry completed = ho1.byWorkOrder(synthWo).stream().filter(e -> e.eventType().equals("WO_COMPLETED"))
          .findFirst().orElseThrow();
      String toolResult = ho1.byEventType("TOOL_CALL").get(0).metaText("result");
      String answer = completed.meta("output_result").path("response_text").asText();

      String ctx = rt.ledgers().ho2("ADMIN").byEventType("ATTENTION_ASSEMBLED").get(1).metaText("context");
      long in = completed.meta("cost").path("input_tokens").asLong();
      long out = completed.meta("cost").path("output_tokens").asLong();
      String line = " WO_COMPLETED " + synthWo + " synthesize (PRC-SYNTHESIZE-001): tools list_packages; ";
      assertTrue(ctx.contains("## recent_wo_executions (ho1)\n"), ctx);
      assertTrue(ctx.contains(line), "a compact line for turn 1's synthesize work order: " + ctx);
      String rest = ctx.substring(ctx.indexOf(line) + line.length());
      assertTrue(rest.matches("(?s)\\d+ LLM calls, " + in + " in / " + out + " out tokens, \\$0\\.0000\n.*"), rest);
      // The tool's result (package ids with their SHA-256) and the answer are transcripts: no execution line
      // carries them (the answer is in the conversation section, where it belongs).
      int from = ctx.indexOf("## recent_wo_executions (ho1)\n");
      int next = ctx.indexOf("\n## ", from + 1);
      String executions = ctx.substring(from, next < 0 ? ctx.length() : next + 1);
      String aHash = toolResult.replaceAll("(?s).*?\\b([0-9a-f]{64})\\b.*", "$1");
      assertEquals(64, aHash.length(), toolResult);
      assertFalse(executions.contains(aHash), "no tool result text in an execution line: " + executions);
      assertFalse(executions.contains(answer.substring(0, Math.min(30, answer.length()))), executions);
      assertFalse(ctx.contains("response_text"), ctx);
      for (String l : executions.split("\n")) {
        assertTrue(l.length() <= 300, "one compact line per work order: " + l);
      }
    }
  }
}
