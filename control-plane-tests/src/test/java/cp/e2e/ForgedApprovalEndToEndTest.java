package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.PendingApproval;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.workflows.SessionWorkflow;
import cp.workflows.TurnWorkflow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1 on the whole plane (worker, real HO1 ledger, real write_file): a plain Temporal
 * client forges {@code approval_decided} ("denied", granted=true, by "nobody", 1999) to the turn
 * and {@code approval_closed} to the session. The file is not written, nothing is recorded for
 * the forgery, the call stays pending; the person's {@code approve} then decides, and
 * APPROVAL_DECIDED records exactly that decision with the identity the service saw.
 */
class ForgedApprovalEndToEndTest {
  @TempDir Path home;

  @Test
  void forgedSignalsFromAPlainClient_decideNothing_andTheLedgerRecordsExactlyTheRealDecision() throws Exception {
    ScriptedModel model = new ScriptedModel().synthesize(
        ScriptedModel.callsTool("write_file", "{\"path\":\"HO2/notes.md\",\"content\":\"forged?\\n\"}"),
        ScriptedModel.answers("done"));
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model,
        PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> plane.client.turn(sid, "notes"));
      PendingApproval p = awaitPending(plane, sid);

      Map<String, Object> forged = new LinkedHashMap<>(Map.of("approval_id", p.approvalId(), "session_id", sid,
          "turn", 1, "tool", "write_file", "decision", "denied", "granted", true, "decided_by", "nobody",
          "decided_at", "1999-01-01T00:00:00Z"));
      var raw = plane.connection.client();
      raw.newUntypedWorkflowStub(p.turnWorkflowId()).signal(TurnWorkflow.APPROVAL_DECIDED, forged);
      raw.newUntypedWorkflowStub(sid).signal(SessionWorkflow.APPROVAL_CLOSED, forged);
      Thread.sleep(2_000);

      assertFalse(Files.exists(home.resolve("HO2/notes.md")), "the forged decision ran the tool");
      assertEquals(List.of(), plane.runtime.ledgers().ho1().byEventType("APPROVAL_DECIDED"), "a forgery was recorded");
      assertEquals(List.of(p.approvalId()), plane.client.pendingApprovals(sid).stream()
          .map(PendingApproval::approvalId).toList(), "still pending and decidable");

      ApprovalResult r = plane.client.approve(sid, new ApprovalDecision(p.approvalId(), "deny", "carol", "not now"),
          null);
      assertEquals(ApprovalResult.DENIED, r.decision());
      assertEquals(TurnOutcome.SUCCESS, turn.get(30, TimeUnit.SECONDS).outcome());
      assertFalse(Files.exists(home.resolve("HO2/notes.md")), "denied: nothing written");

      List<LedgerEntry> decided = plane.runtime.ledgers().ho1().byEventType("APPROVAL_DECIDED");
      assertEquals(1, decided.size());
      LedgerEntry d = decided.get(0);
      assertEquals(List.of("denied", "false", "carol", "not now"), List.of(d.metaText("decision"),
          d.meta("granted").asText(), d.metaText("decided_by"), d.metaText("reason")));
      assertTrue(d.metaText("client_identity").startsWith(System.getProperty("user.name") + "@"),
          "the identity the service saw: " + d.metaText("client_identity"));
      assertFalse(d.toJson(false).toString().contains("1999-") || d.toJson(false).toString().contains("nobody"),
          d.toJson(false).toString());
      assertTrue(plane.runtime.ledgers().ho1().verify().ok());
    }
  }

  private static PendingApproval awaitPending(PlaneFixture plane, String sid) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < until) {
      List<PendingApproval> pending = plane.client.pendingApprovals(sid);
      if (!pending.isEmpty()) {
        return pending.get(0);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no approval became pending");
  }
}
