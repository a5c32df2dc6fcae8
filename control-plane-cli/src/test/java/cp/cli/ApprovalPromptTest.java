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

/**
 * Chat's in-place question, answered through piped input. Issue 15: y grants, anything else denies,
 * end of input decides nothing. Issue 20: r takes the reason and denies with it (it asked the
 * question again), exit decides nothing (it was taken as a denial), a reason may follow y or n.
 */
class ApprovalPromptTest {
  static final PendingApproval P = new PendingApproval("APR-1a2b3c4d-0001-02-1-1", "SES-1a2b3c4d", 1,
      "SES-1a2b3c4d/turn-0001", "WO-1a2b3c4d-0001-02", "write_file", "tu-1",
      "HO2/notes.md (120 bytes, 3 lines)\n  | # Notes\n  | one\n  | two", "2026-11-23T18:00:00Z",
      "2026-11-23T18:04:00Z", 240, "deny", "LED-1");

  private final ByteArrayOutputStream shown = new ByteArrayOutputStream();
  private LineInput input;

  private ApprovalPrompt.Answer answer(String typed) {
    input = new LineInput(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)));
    return ApprovalPrompt.ask(P, input, new PrintStream(shown, true, StandardCharsets.UTF_8), "alice");
  }

  private Optional<ApprovalDecision> ask(String typed) {
    return answer(typed).decided();
  }

  /** The next line the chat would read after the question was answered. */
  private String nextLine() throws Exception {
    LineInput.Line l = input.next();
    return l == null ? null : l.text();
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
  void r_takesTheReasonAndDeniesWithIt_withoutAskingAgain() throws Exception {
    ApprovalDecision d = ask("r\nnot in HO2 please\nwhat packages are installed?\n").orElseThrow();
    assertEquals(ApprovalDecision.DENY, d.decision());
    assertEquals("not in HO2 please", d.reason());
    assertTrue(shown.toString(StandardCharsets.UTF_8).contains("reason for denying it: "));
    assertEquals(1, shown.toString(StandardCharsets.UTF_8).split("\\[y/N/r\\(eason\\)\\]", -1).length - 1,
        "the question is asked once\n" + shown);
    assertEquals("what packages are installed?", nextLine(), "the next line is left for the chat");
  }

  @Test
  void aReasonAfterYOrN_decidesWithIt_inOneAnswer() throws Exception {
    ApprovalDecision no = ask("n   not in HO2 please\nnext\n").orElseThrow();
    assertEquals(ApprovalDecision.DENY, no.decision());
    assertEquals("not in HO2 please", no.reason());
    assertEquals("next", nextLine());
    ApprovalDecision yes = ask("Yes, fine by me\n").orElseThrow();
    assertEquals(ApprovalDecision.GRANT, yes.decision());
    assertEquals("fine by me", yes.reason());
    assertEquals(ApprovalDecision.DENY, ask("yeah\n").orElseThrow().decision(), "only y or yes grants");
    ApprovalDecision y = ask("y fine by me\n").orElseThrow();
    assertEquals(ApprovalDecision.GRANT, y.decision());
    assertEquals("fine by me", y.reason());
    assertEquals(ApprovalDecision.DENY, ask("r too big\n").orElseThrow().decision());
    assertEquals("too big", ask("r too big\n").orElseThrow().reason());
  }

  @Test
  void exitOrQuit_decideNothing_andAskChatToEnd() throws Exception {
    for (String word : new String[] {"exit", "quit", " EXIT "}) {
      ApprovalPrompt.Answer a = answer(word + "\nnext\n");
      assertTrue(a.decided().isEmpty(), word + " is not a denial");
      assertTrue(a.leave(), word + " asks chat to end");
      assertEquals("next", nextLine());
    }
  }

  @Test
  void endOfInput_decidesNothing() {
    assertTrue(ask("").isEmpty());
    assertTrue(ask("r\n").isEmpty());
  }

  /** A tester's report: {@code approve --by ""} (an unset variable) recorded the OS user as the approver. */
  @Test
  void anEmptyBy_isRefused_namingTheOption_andNoByMeansTheOsUser() {
    for (String blank : new String[] {"", "  "}) {
      var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> ApprovalPrompt.approver(blank));
      assertTrue(e.getMessage().startsWith("--by is empty"), e.getMessage());
    }
    assertEquals(System.getProperty("user.name", "unknown"), ApprovalPrompt.approver(null));
    assertEquals("carol", ApprovalPrompt.approver("carol"));
  }

  @Test
  void approveWithAnEmptyBy_failsInOneLine_beforeReachingAnyService(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home) {
    var r = CliHarness.run(CliHarness.env(home), "approve", "SES-1a2b3c4d", "APR-1a2b3c4d-0001-02-1-1", "--by", "");

    CliHarness.assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--by is empty"), r::describe);
  }
}
