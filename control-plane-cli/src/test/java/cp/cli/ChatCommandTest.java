package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.endedSession;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl chat} with piped input and no TEMPORAL_ADDRESS: everything in this process, offline provider. */
class ChatCommandTest {
  /** The footer TurnPrinter writes after each reply. */
  static final Pattern FOOTER = Pattern.compile("(?m)^  \\[success · tokens \\d+ in / \\d+ out · \\$\\d+\\.\\d{4} · WOs \\d+"
      + " · tool calls (\\d+) · session \\d+ used / \\d+ left]$");

  @TempDir Path home;

  private List<String> footers(CliHarness.Run r) {
    return FOOTER.matcher(r.out()).results().map(m -> m.group(1)).toList();
  }

  private List<LedgerEntry> hot(String eventType, String session) {
    try (Ledgers l = Ledgers.open(home)) {
      return l.hot().byEventType(eventType).stream().filter(e -> session.equals(e.sessionId())).toList();
    }
  }

  /**
   * Issue 11 item 8: chat on a HOT ledger whose chain is broken (a line appended by another
   * process) names the ledger and the repair, at once, instead of "not found … restarted service".
   */
  @Test
  void aBrokenHotLedger_isNamedWithItsRepair_notReportedAsALostSession() throws Exception {
    var first = runWithInput(CliHarness.env(home), "hello\n", "chat");
    assertEquals(Cpctl.OK, first.code(), first::describe);
    java.nio.file.Files.writeString(home.resolve("HOT/ledger/governance.jsonl"), "not a ledger entry\n",
        java.nio.file.StandardOpenOption.APPEND);

    long t0 = System.nanoTime();
    var r = runWithInput(CliHarness.env(home), "hello\n", "chat");
    long ms = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertOneLineError(r, Cpctl.FAILED);
    assertTrue(r.err().contains("HOT ledger HOT/ledger/governance.jsonl cannot be written"), r::describe);
    assertTrue(r.err().contains("'cpctl ledger repair --tier hot'"), r::describe);
    assertTrue(!r.err().contains("not found") && !r.err().contains("restarted"), r::describe);
    assertTrue(ms < 10_000, "answered in " + ms + " ms (a retried SESSION_START alone takes 15 s)");
    System.out.println("ChatCommandTest: chat on a broken HOT ledger answered in " + ms + " ms, exit " + r.code());

    var repair = CliHarness.run(CliHarness.env(home), "ledger", "repair", "--tier", "hot");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    var again = runWithInput(CliHarness.env(home), "hello\n", "chat");
    assertEquals(Cpctl.OK, again.code(), again::describe);
  }

  @Test
  void pipedTurnsThenExit_printRepliesAndFootersAndEndTheSessionOnce() {
    var r = runWithInput(CliHarness.env(home), CliHarness.TWO_TURNS, "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(List.of("0", "1"), footers(r), () -> "one footer per turn; the package question calls one tool\n"
        + r.describe());
    List<String> lines = r.out().lines().toList();
    assertTrue(!lines.get(0).isBlank() && !lines.get(0).startsWith("  ["), () -> "a reply comes first\n" + r.describe());
    for (int i = 0; i < lines.size(); i++) {
      if (FOOTER.matcher(lines.get(i)).matches()) {
        String above = lines.get(i - 1);
        assertTrue(!above.isBlank() && !FOOTER.matcher(above).matches(), () -> "each footer follows its reply\n"
            + r.describe());
      }
    }
    assertTrue(r.out().contains("(offline model)"), () -> "the offline provider says what it is\n" + r.describe());
    String sid = endedSession(r);
    assertTrue(r.out().contains("Session " + sid + " ended: 2 turn(s)"), r::describe);
    assertEquals(1, hot("SESSION_START", sid).size(), "SESSION_START entries");
    assertEquals(1, hot("SESSION_END", sid).size(), "SESSION_END entries");
    assertEquals("", r.err(), r::describe);
  }

  @Test
  void quit_endsTheSessionLikeExit() {
    var r = runWithInput(CliHarness.env(home), "hello\nquit\nnot sent\n", "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(1, footers(r).size(), () -> "the line after quit is never sent\n" + r.describe());
    assertEquals(1, hot("SESSION_END", endedSession(r)).size());
  }

  @Test
  void endOfInputWithoutExit_endsTheSessionCleanly() {
    var r = runWithInput(CliHarness.env(home), "hello", "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(1, footers(r).size(), () -> "a last line without newline is still a turn\n" + r.describe());
    String sid = endedSession(r);
    assertEquals(1, hot("SESSION_START", sid).size());
    assertEquals(1, hot("SESSION_END", sid).size());
    assertEquals("", r.err(), r::describe);
  }

  @Test
  void emptyInput_startsAndEndsASessionWithNoTurns() {
    var r = runWithInput(CliHarness.env(home), "", "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("ended: 0 turn(s)"), r::describe);
  }

  @Test
  void aLineThatIsNotUtf8_isSkippedWithAMessage_theChatContinues_andExitsOne() throws Exception {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    in.write(new byte[] {(byte) 0xff, (byte) 0xfe, 'h', 'i', (byte) 0xc3, '\n'});
    in.write("hello\nexit\n".getBytes(StandardCharsets.UTF_8));
    var r = runWithInput(CliHarness.env(home), in.toByteArray(), "chat");
    assertEquals(Cpctl.FAILED, r.code(), () -> "piped, a line that got no answer fails the chat\n" + r.describe());
    assertEquals(2, r.errLines(), () -> "the refusal, and the summary\n" + r.describe());
    assertTrue(r.err().contains("cpctl: 1 of 2 message(s) got no answer"), r::describe);
    assertTrue(r.err().contains("input line 1 skipped") && r.err().contains("UTF-8"), r::describe);
    assertNoStackTrace(r);
    assertEquals(1, footers(r).size(), () -> "the next line is still answered\n" + r.describe());
    assertTrue(r.out().contains("ended: 1 turn(s)"), r::describe);
    assertTrue(!r.out().contains("\uFFFD"), () -> "no replacement characters reach the model\n" + r.describe());
  }

  @Test
  void aLineWithAControlCharacter_isRefusedWithAMessage_theChatContinues_andExitsOne() {
    var r = runWithInput(CliHarness.env(home), "ring \u0007 bell\nhello\nexit\n", "chat");
    assertEquals(Cpctl.FAILED, r.code(), () -> "piped, a line that got no answer fails the chat\n" + r.describe());
    assertEquals(2, r.errLines(), () -> "the refusal, and the summary\n" + r.describe());
    assertTrue(r.err().contains("cpctl: 1 of 2 message(s) got no answer"), r::describe);
    assertTrue(r.err().contains("control character U+0007"), r::describe);
    assertNoStackTrace(r);
    assertEquals(1, footers(r).size(), r::describe);
    assertTrue(r.out().contains("ended: 1 turn(s)"), r::describe);
  }

  @Test
  void aThreeMegabyteLine_isRefusedBeforeItReachesTemporal_theChatContinues_andExitsOne() {
    String huge = "x".repeat(3 * 1024 * 1024);
    var r = runWithInput(CliHarness.env(home), huge + "\nhello\nexit\n", "chat");
    assertEquals(Cpctl.FAILED, r.code(), () -> "piped, a line that got no answer fails the chat\n" + r.describe());
    assertEquals(2, r.errLines(), () -> "the refusal, and the summary\n" + r.describe());
    assertTrue(r.err().contains("cpctl: 1 of 2 message(s) got no answer"), r::describe);
    assertTrue(r.err().contains("the message is 3145728 bytes; the limit is 524288 bytes"), r::describe);
    assertTrue(r.err().length() < 1200, "the refusal does not echo the line");
    assertNoStackTrace(r);
    assertEquals(1, footers(r).size(), () -> "the next line is still answered\n" + r.describe());
    assertTrue(r.out().contains("ended: 1 turn(s)"), r::describe);
  }

  @Test
  void unknownAgent_isRefusedInOneLineListingTheKnownAgents() {
    var r = runWithInput(CliHarness.env(home), "hello\n", "chat", "--agent", "NOPE");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("NOPE") && r.err().contains("ADMIN") && r.err().contains("RESIDENT"), r::describe);
    assertEquals("", r.out(), r::describe);
  }

  @Test
  void residentAgent_chatsWithItsOwnHo2Ledger() {
    var r = runWithInput(CliHarness.env(home), "hello\n", "chat", "--agent", "resident");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(home.resolve("HO2/ledger/RESIDENT/workorder.jsonl").toFile().isFile(), r::describe);
  }

  @Test
  void chatWithSessionButNoTemporalAddress_isRefusedInOneLine() {
    var r = runWithInput(CliHarness.env(home), "hello\n", "chat", "--session", "SES-12345678");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("TEMPORAL_ADDRESS"), r::describe);
  }

  // Issue 11 items 3 and 4: an agent allowing 2 turns, 3 piped lines. The session ends with its
  // second turn (SESSION_END turn_limit); the third line gets one clear line saying so, when and
  // why, instead of "not found … restarted service", and chat stops with exit 1 (input unsent).
  @Test
  void pipedChatPastTheTurnLimit_saysTheSessionEndedWhenAndWhy_andStops(@TempDir Path resources) {
    cp.contracts.CatalogFixture.copyOfShipped(resources).edit("agents/admin.json",
        a -> ((com.fasterxml.jackson.databind.node.ObjectNode) a.get("budget")).put("turn_limit", 2));
    var env = CliHarness.env(home);
    env.put("CP_RESOURCES_DIR", resources.toString());
    var r = runWithInput(env, "hello\nhello again\nand a third\n", "chat");
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertEquals(2, footers(r).size(), r::describe);
    String sid = endedSession(r);
    assertTrue(r.err().contains("session " + sid + " has ended (turn_limit at ")
        && r.err().contains(": all 2 turns its agent allows were used)"), r::describe);
    assertTrue(r.err().contains("not sent"), r::describe);
    assertTrue(!r.err().contains("not found") && !r.err().contains("restarted"), r::describe);
    assertTrue(r.out().contains("Session " + sid + " ended: 2 turn(s)"), r::describe);
    List<LedgerEntry> ends = hot("SESSION_END", sid);
    assertEquals(1, ends.size());
    assertEquals("turn_limit", ends.get(0).metaText("end_reason"));
    assertNoStackTrace(r);
  }

  /**
   * A tester's report: piped chat exited 0 though every turn was refused ({@code cpctl turn} exits 2
   * for it). Piped, chat exits 1 when any message got no answer, and says how many on stderr.
   */
  @Test
  void pipedChatWhoseEveryTurnIsRefused_exitsOne_sayingHowManyGotNoAnswer(@TempDir Path resources) {
    cp.contracts.CatalogFixture.copyOfShipped(resources).edit("agents/admin.json",
        a -> ((com.fasterxml.jackson.databind.node.ObjectNode) a.get("budget")).put("session_token_limit", 200)
            .put("wo_token_budget", 200));
    var env = CliHarness.env(home);
    env.put("CP_RESOURCES_DIR", resources.toString());
    var r = runWithInput(env, "hello\nhello again\n", "chat");
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertEquals(0, footers(r).size(), r::describe);
    assertEquals(2, r.err().lines().filter(l -> l.contains("cannot pay for this turn")).count(), r::describe);
    assertTrue(r.err().contains("cpctl: 2 of 2 message(s) got no answer"), r::describe);
    assertTrue(r.out().contains("ended: 0 turn(s)"), () -> "the session is still ended\n" + r.describe());
    assertNoStackTrace(r);
  }

  @Test
  void aPipedChatOnItsOwnService_saysAnApprovalCannotBeDecided_andTheCallWaitsOutItsTimeout(@TempDir Path agents)
      throws Exception {
    java.nio.file.Files.writeString(agents.resolve("w.yaml"), """
        agent_class: WRITER
        instructions: You write notes.
        tools: [write_file]
        approval_timeout_seconds: 2
        permissions: {write: ['HO2/*']}
        """);
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", agents.toString());
    var r = runWithInput(env, "call write_file {\"path\": \"HO2/n.txt\", \"content\": \"x\"}\n", "chat",
        "--agent", "WRITER");
    assertTrue(r.err().contains("cannot be decided: this chat's input is not a terminal, and its Temporal service"
        + " runs inside it"), r::describe);
    assertTrue(!r.err().contains("decide with 'cpctl approve"), "no advice that cannot work: " + r.describe());
    assertTrue(!java.nio.file.Files.exists(home.resolve("HO2/n.txt")), "timed out: denied, nothing written");
  }
}
