package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl ledger query|verify|repair} against a plane root a scripted chat wrote. */
class LedgerCommandTest {
  static final String HOT = "HOT/ledger/governance.jsonl";

  @TempDir Path home;

  /** Changes the reason of line {@code n} (1-based) of a ledger file, as a tamperer would. */
  private void tamper(String relative, int n) throws Exception {
    Path file = home.resolve(relative);
    List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
    String edited = lines.get(n - 1).replace("\"reason\":\"", "\"reason\":\"edited: ");
    assertFalse(edited.equals(lines.get(n - 1)), "line " + n + " has no reason to edit");
    lines.set(n - 1, edited);
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  @Test
  void verifyOnAnEmptyHome_succeeds() {
    var r = run(CliHarness.env(home), "ledger", "verify");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("nothing to verify"), r::describe);
    assertEquals("", r.err(), r::describe);
  }

  @Test
  void verifyAfterAChat_printsOkForEveryLedger() {
    CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "ledger", "verify");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    List<String> ok = r.out().lines().filter(l -> l.startsWith("OK ")).toList();
    assertEquals(3, ok.size(), () -> "HOT, HO2/ADMIN and HO1\n" + r.describe());
    assertTrue(ok.get(0).contains(HOT), r::describe);
    assertTrue(r.out().contains("HO2/ledger/ADMIN/workorder.jsonl") && r.out().contains("HO1/ledger/worker.jsonl"),
        r::describe);
    assertFalse(r.out().contains("FAIL"), r::describe);
  }

  @Test
  void verifyAfterOneLineWasEdited_exits1NamingTheFileAndLine() throws Exception {
    CliHarness.chat(CliHarness.env(home));
    tamper(HOT, 2);
    var r = run(CliHarness.env(home), "ledger", "verify");
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = r.out().lines().filter(l -> l.startsWith("FAIL")).toList();
    assertEquals(1, fail.size(), r::describe);
    assertTrue(fail.get(0).contains(HOT) && fail.get(0).contains("line 2"), r::describe);
    assertEquals(2, r.out().lines().filter(l -> l.startsWith("OK ")).count(), () -> "the other ledgers are fine\n"
        + r.describe());
    assertNoStackTrace(r);
  }

  @Test
  void repairAfterAnEdit_quarantinesTheBadLinesAndVerifiesAgain() throws Exception {
    CliHarness.chat(CliHarness.env(home));
    long before = Files.readAllLines(home.resolve(HOT)).size();
    tamper(HOT, 3);
    var repair = run(CliHarness.env(home), "ledger", "repair", "--tier", "hot");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    assertTrue(repair.out().startsWith("repaired: " + HOT), repair::describe);
    List<Path> quarantine;
    try (Stream<Path> s = Files.list(home.resolve("HOT/ledger"))) {
      quarantine = s.filter(p -> p.getFileName().toString().startsWith("governance.jsonl.quarantine-")).toList();
    }
    assertEquals(1, quarantine.size(), repair::describe);
    assertEquals(before - 2, Files.readAllLines(quarantine.get(0)).size(), "lines 3.. moved to quarantine");
    assertTrue(Files.readString(quarantine.get(0)).contains("edited: "), "the edited line is kept, not deleted");

    var verify = run(CliHarness.env(home), "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    var repaired = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--event", "LEDGER_REPAIRED", "--json");
    assertEquals(1, repaired.out().lines().count(), repaired::describe);
  }

  @Test
  void repairOfAnIntactLedger_changesNothing() throws Exception {
    CliHarness.chat(CliHarness.env(home));
    byte[] before = Files.readAllBytes(home.resolve(HOT));
    var r = run(CliHarness.env(home), "ledger", "repair", "--tier", "hot");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().startsWith("intact"), r::describe);
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(home.resolve(HOT))));
  }

  @Test
  void repairWithNoLedger_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "ledger", "repair", "--tier", "ho1");
    assertOneLineError(r, Cpctl.BAD_INPUT);
  }

  @Test
  void queryExchangesAsJson_printsOneValidEntryPerLine() {
    String sid = CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--event", "EXCHANGE", "--json");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    List<String> lines = r.out().lines().toList();
    assertEquals(5, lines.size(), () -> "turn 1: classify, synthesize; turn 2: classify, synthesize round 1 (tool_use)"
        + " and round 2\n" + r.describe());
    for (String line : lines) {
      JsonNode n = Json.parse(line);
      assertEquals("EXCHANGE", n.path("event_type").asText(), line);
      assertEquals(sid, n.path("metadata").path("session_id").asText(), line);
      assertTrue(n.path("hash").isTextual() && n.path("prev_hash").isTextual(), line);
    }
  }

  @Test
  void queryFiltersBySessionAndLimit() {
    String first = CliHarness.chat(CliHarness.env(home));
    String second = CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--session", second, "--json", "--limit", "0");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().lines().count() > 2, r::describe);
    assertTrue(r.out().lines().allMatch(l -> l.contains(second) && !l.contains(first)), r::describe);
    var last = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--limit", "1");
    assertEquals(1, last.out().lines().count(), last::describe);
    assertTrue(last.out().contains("SESSION_END"), last::describe);
  }

  @Test
  void queryOfAnUnknownTier_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "nope");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("nope") && r.err().contains("hot"), r::describe);
  }

  @Test
  void queryWithANegativeLimit_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--limit", "-1");
    assertOneLineError(r, Cpctl.BAD_INPUT);
  }

  @Test
  void queryOfALedgerNotYetWritten_saysSoAndCreatesNothing() {
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "ho1");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().startsWith("no ho1 ledger"), r::describe);
    assertFalse(Files.exists(home.resolve("HO1")), "a query must not create ledgers");
  }

  /** Event types are upper-case; a lower-case one (what a person types) used to match nothing, silently. */
  @Test
  void queryOfAnEventTypeInLowerCase_findsItsEntries() {
    CliHarness.chat(CliHarness.env(home));
    var upper = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--event", "EXCHANGE", "--json");
    var lower = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--event", "exchange", "--json");
    assertEquals(Cpctl.OK, lower.code(), lower::describe);
    assertEquals(5, lower.out().lines().count(), lower::describe);
    assertEquals(upper.out(), lower.out());
  }

  /** A misspelt event type matches nothing: said on stderr with the types the plane writes, not an empty silence. */
  @Test
  void queryOfAnEventTypeThePlaneDoesNotWrite_saysSo_withTheKnownOnes() {
    CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--event", "EXCHANGES");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals("", r.out(), r::describe);
    assertTrue(r.err().contains("no entry has event type 'EXCHANGES'") && r.err().contains("EXCHANGE,")
        && r.err().contains("SESSION_START"), r::describe);
  }

  @Test
  void queryByAgentClass_onHotAndHo1_returnsTheEntriesOfThatClassesSessions() {
    var env = CliHarness.env(home);
    CliHarness.runWithInput(env, "hello\n", "chat", "--agent", "ADMIN");
    CliHarness.runWithInput(env, "hello\n", "chat", "--agent", "RESIDENT");
    var admin = run(env, "ledger", "query", "--tier", "hot", "--agent-class", "ADMIN", "--event", "EXCHANGE", "--json");
    var resident = run(env, "ledger", "query", "--tier", "hot", "--agent-class", "RESIDENT", "--event", "EXCHANGE",
        "--json");
    var all = run(env, "ledger", "query", "--tier", "hot", "--event", "EXCHANGE", "--json");
    long a = admin.out().lines().count();
    long r = resident.out().lines().count();
    assertTrue(a > 0 && r > 0, admin.describe() + resident.describe());
    assertEquals(all.out().lines().count(), a + r, "every EXCHANGE is one class's");
    assertTrue(run(env, "ledger", "query", "--tier", "ho1", "--agent-class", "ADMIN").out().lines().count() > 0,
        "HO1's entries of ADMIN's session");
  }

  /** A session no ledger has used to print nothing and exit 0, like a session without entries of that kind. */
  @Test
  void queryOfASessionNoLedgerHas_saysSo_exit2_asShowDoes() {
    CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "ho1", "--session", "SES-0123abcd");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("session SES-0123abcd is not in the ledgers"), r::describe);
    var show = run(CliHarness.env(home), "show", "SES-0123abcd");
    assertEquals(show.code(), r.code(), "the same exit as show\n" + show.describe());
  }

  @Test
  void queryOfAMalformedSessionId_saysTheForm() {
    var r = run(CliHarness.env(home), "ledger", "query", "--tier", "hot", "--session", "SES-XYZ");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("'SES-XYZ' is not a session id (expected SES- and 8 hex digits"), r::describe);
  }

  /** {@code --expect-head hot=FILE} with no such file used to say only that the form was wrong. */
  @Test
  void verifyWithAnExpectedHeadFileThatIsNotThere_namesTheFile() {
    Path missing = home.resolve("nonexist.jsonl");
    var r = run(CliHarness.env(home), "ledger", "verify", "--expect-head", "hot=" + missing);
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("the file " + missing + " does not exist"), r::describe);
    var bad = run(CliHarness.env(home), "ledger", "verify", "--expect-head", "hot=12");
    assertTrue(bad.err().contains("expected STREAM=ENTRIES:HASH"), "a mistyped head is still a form error\n"
        + bad.describe());
  }
}
