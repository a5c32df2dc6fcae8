package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ApprovalDecision;
import cp.model.PendingApproval;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22 item 5, without a key: on the offline provider, ADMIN's user writes
 * {@code call write_file {...}}, the turn pauses for the approval write_file needs, and once
 * granted the file holds exactly the content; a malformed call is answered in words.
 */
class OfflineToolCallEndToEndTest {
  @TempDir Path home;
  private PlaneFixture plane;

  @AfterEach
  void stop() {
    if (plane != null) {
      plane.close();
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void callWriteFile_offline_afterApproval_writesTheFile() throws Exception {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools);
    String sid = plane.client.startSession("ADMIN");

    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> plane.client.turn(sid,
        "call write_file {\"path\": \"HO2/notes.txt\", \"content\": \"hi from offline\\n\"}"));
    PendingApproval pending = waitForApproval(sid);
    assertEquals("write_file", pending.tool());
    plane.client.approve(sid, new ApprovalDecision(pending.approvalId(), "grant", "tester", "test"), null);
    TurnResult r = turn.get(60, TimeUnit.SECONDS);

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    assertEquals(List.of("write_file"), r.toolCalls().stream().map(t -> t.toolName()).toList());
    assertEquals("hi from offline\n", Files.readString(home.resolve("HO2/notes.txt"), StandardCharsets.UTF_8));
    assertTrue(r.response().endsWith("(offline model)"), r.response());

    TurnResult bad = plane.client.turn(sid, "call write_file {\"path\": \"HO2/x.txt\"");
    assertEquals(TurnOutcome.SUCCESS, bad.outcome(), bad::toString);
    assertTrue(bad.response().contains("not valid JSON"), bad.response());
    assertEquals(List.of(), bad.toolCalls());
  }

  private PendingApproval waitForApproval(String sid) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      List<PendingApproval> pending = plane.client.pendingApprovals(sid);
      if (!pending.isEmpty()) {
        return pending.get(0);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no approval became pending");
  }
}
