package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ApprovalDecision;
import cp.model.PendingApproval;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 15: chat's in-place question, y grants, anything else denies, r asks for a reason, end of input decides nothing. */
class ApprovalPromptTest {
  static final PendingApproval P = new PendingApproval("APR-1a2b3c4d-0001-02-1-1", "SES-1a2b3c4d", 1,
      "SES-1a2b3c4d/turn-0001", "WO-1a2b3c4d-0001-02", "write_file", "tu-1",
      "HO2/notes.md (120 bytes, 3 lines)\n  | # Notes\n  | one\n  | two", "2026-11-23T18:00:00Z",
      "2026-11-23T18:04:00Z", 240, "deny", "LED-1");

  private final ByteArrayOutputStream shown = new ByteArrayOutputStream();

  private Optional<ApprovalDecision> ask(String typed) {
    return ApprovalPrompt.ask(P, new LineInput(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8))),
        new PrintStream(shown, true, StandardCharsets.UTF_8), "alice");
  }

  @Test
  void question_namesTheToolPathSizeAndLines() {
    assertEquals("approve write_file HO2/notes.md (120 bytes, 3 lines)? [y/N/r(eason)] ", ApprovalPrompt.question(P));
    ask("y\n");
    assertTrue(shown.toString(StandardCharsets.UTF_8).contains("| # Notes"), "the summary is shown first");
  }

  @Test
  void yGrants_enterOrAnythingElseDenies() {
    ApprovalDecision y = ask("y\n").orElseThrow();
    assertEquals(ApprovalDecision.GRANT, y.decision());
    assertEquals("alice", y.decidedBy());
    assertEquals(P.approvalId(), y.approvalId());
    assertEquals(ApprovalDecision.DENY, ask("\n").orElseThrow().decision());
    assertEquals(ApprovalDecision.DENY, ask("nope\n").orElseThrow().decision());
    assertNull(ask("Yes\n").orElseThrow().reason());
    assertEquals(ApprovalDecision.GRANT, ask("Yes\n").orElseThrow().decision());
  }

  @Test
  void rAsksForAReasonThenTheDecision() {
    ApprovalDecision d = ask("r\nnot in HO2 please\nn\n").orElseThrow();
    assertEquals(ApprovalDecision.DENY, d.decision());
    assertEquals("not in HO2 please", d.reason());
    assertTrue(shown.toString(StandardCharsets.UTF_8).contains("reason: "));
  }

  @Test
  void endOfInput_decidesNothing() {
    assertTrue(ask("").isEmpty());
    assertTrue(ask("r\n").isEmpty());
  }
}
