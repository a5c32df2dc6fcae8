package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.eval.CaseReport;
import cp.eval.CaseRun;
import cp.eval.EvalCase;
import cp.eval.EvalReports;
import cp.eval.ExpectationChecker;
import cp.eval.ReplyDiff;
import cp.eval.EvalSuite;
import cp.eval.Expectations;
import cp.eval.LedgerCite;
import cp.eval.RecordedTurn;
import cp.eval.SuiteFiles;
import cp.ledger.Ledgers;
import cp.ledger.StreamId;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, freeze and verify: a real session on the in-process plane (offline model, a tool call
 * that succeeds and one the tool refuses) is frozen into a suite, JSON and YAML; verify proves it
 * against the ledgers, catches an edited record (but not an edited {@code expect}), and catches a
 * cited ledger entry that was altered or deleted.
 */
class EvalFreezeVerifyTest {
  @TempDir static Path home;
  @TempDir Path work;

  static String sessionId;
  static List<TurnResult> results = new ArrayList<>();
  static final List<String> INPUTS = List.of("hello", "what packages are installed?",
      "call read_file {\"path\": \"HOT/ledger/governance.jsonl\"}");

  @BeforeAll
  static void recordASession() {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools)) {
      sessionId = plane.client.startSession("ADMIN");
      for (String text : INPUTS) {
        results.add(plane.client.turn(sessionId, text));
      }
      plane.client.end(sessionId);
    }
    results.forEach(r -> assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString));
  }

  @Test
  void freeze_json_and_yaml_oneCasePerTurn_fromTheLedger_andVerifyPasses() throws Exception {
    for (String name : List.of("suite.json", "suite.yaml")) {
      Path out = work.resolve(name);
      var r = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--out", out.toString());
      assertEquals(Cpctl.OK, r.code(), r::describe);
      assertTrue(r.out().contains("froze 3 case(s) from 1 session(s)"), r::describe);
      assertEquals(name.endsWith(".json"), Files.readString(out).trim().startsWith("{"), name);
      EvalSuite suite = SuiteFiles.read(out);
      assertEquals(3, suite.cases().size());
      for (int i = 0; i < 3; i++) {
        EvalCase c = suite.cases().get(i);
        assertEquals(sessionId + "#" + (i + 1), c.id());
        assertEquals(INPUTS.get(i), c.input().text());
        assertEquals("ADMIN", c.input().agentClass());
        assertEquals(i + 1, c.input().turn());
        assertEquals(results.get(i).response(), c.recorded().reply(), "the reply the user got");
        assertEquals("success", c.recorded().outcome());
        assertTrue(c.recorded().gatePassed());
        assertTrue(c.recorded().inputTokens() > 0 && c.recorded().outputTokens() > 0, c.recorded()::toString);
        assertEquals(Boolean.TRUE, c.expect().schemaValid());
        assertEquals(Boolean.TRUE, c.expect().gatePasses());
      }
      RecordedTurn packages = suite.cases().get(1).recorded();
      assertEquals(1, packages.tools().size());
      assertEquals("list_packages", packages.tools().get(0).tool());
      assertFalse(packages.tools().get(0).error());
      assertTrue(packages.tools().get(0).result().asText().contains("PRC-SYNTHESIZE-001"), packages::toString);
      assertEquals(List.of("list_packages"), suite.cases().get(1).expect().tools());
      RecordedTurn refused = suite.cases().get(2).recorded();
      assertEquals("read_file", refused.tools().get(0).tool());
      assertEquals("HOT/ledger/governance.jsonl", refused.tools().get(0).arguments().path("path").asText());
      assertTrue(refused.tools().get(0).error(), "a refused call is recorded as an error");
      assertEquals(List.of(), suite.cases().get(0).expect().tools(), "no tool called: expect none");
      assertCitesAreTheLedgers(suite.cases().get(1));

      var v = run(CliHarness.env(home), "eval", "verify", out.toString());
      assertEquals(Cpctl.OK, v.code(), v::describe);
      assertTrue(v.out().contains("3 case(s): 3 OK"), v::describe);
    }
  }

  @Test
  void freeze_onlyTheTurnsAsked() throws Exception {
    Path out = work.resolve("two.yaml");
    var r = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--turns", "1,3", "--out", out.toString());
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(List.of(sessionId + "#1", sessionId + "#3"), SuiteFiles.read(out).cases().stream().map(EvalCase::id).toList());
    assertTrue(r.err().contains("note: 1 case(s) come from a session's turn 2 or later"), r::describe);
    var first = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--turns", "1", "--out",
        work.resolve("one.yaml").toString());
    assertEquals(Cpctl.OK, first.code(), first::describe);
    assertFalse(first.err().contains("note:"), "a first turn runs as it ran: " + first.describe());
  }

  @Test
  void freeze_byAgentClass_takesTheNewestSessionsSinceTheDate() throws Exception {
    Path out = work.resolve("agent.json");
    var r = run(CliHarness.env(home), "eval", "freeze", "--agent", "admin", "--since", "2000-01-01", "--limit", "1",
        "--out", out.toString());
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(3, SuiteFiles.read(out).cases().size());
    var none = run(CliHarness.env(home), "eval", "freeze", "--agent", "ADMIN", "--since", "2999-01-01",
        "--out", work.resolve("none.json").toString());
    assertOneLineError(none, Cpctl.BAD_INPUT);
    assertTrue(none.err().contains("no session of agent class ADMIN"), none::describe);
    assertFalse(Files.exists(work.resolve("none.json")));
  }

  @Test
  void freeze_neverReplacesAnExistingSuite_withoutForce_andWritesFilesAsTheUmaskSays() throws Exception {
    Path out = work.resolve("edited.yaml");
    Files.writeString(out, "my edited expectations\n");
    var refused = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--out", out.toString());
    assertOneLineError(refused, Cpctl.BAD_INPUT);
    assertTrue(refused.err().contains("exists") && refused.err().contains("--force"), refused::describe);
    assertEquals("my edited expectations\n", Files.readString(out), "the edited suite is kept");

    var forced = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--out", out.toString(),
        "--force");
    assertEquals(Cpctl.OK, forced.code(), forced::describe);
    assertEquals(3, SuiteFiles.read(out).cases().size());
    if (out.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      // The suite gets the mode any new file gets here (the umask's), not createTempFile's 0600.
      Path plain = Files.createFile(work.resolve("plain.txt"));
      assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(out));
    }
  }

  @Test
  void freeze_badInput_isExit2_inOneLine_andWritesNothing() throws Exception {
    Path out = work.resolve("x.yaml");
    var unknown = run(CliHarness.env(home), "eval", "freeze", "--session", "SES-00000000", "--out", out.toString());
    assertOneLineError(unknown, Cpctl.BAD_INPUT);
    assertTrue(unknown.err().contains("SES-00000000 is not in the ledgers"), unknown::describe);
    var range = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--turns", "2,9", "--out",
        out.toString());
    assertOneLineError(range, Cpctl.BAD_INPUT);
    assertTrue(range.err().contains("has no turn 9 (its turns: 1,2,3)"), range::describe);
    var twice = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--turns", "1,1", "--out",
        out.toString());
    assertOneLineError(twice, Cpctl.BAD_INPUT);
    assertTrue(twice.err().contains("a turn is given twice"), twice::describe);
    Path unwritable = work.resolve("no-such-dir").resolve("x.yaml");
    var cannot = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--out", unwritable.toString());
    assertOneLineError(cannot, Cpctl.BAD_INPUT);
    assertTrue(cannot.err().contains(unwritable + ": cannot be written"), cannot::describe);
    var both = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--agent", "ADMIN", "--out",
        out.toString());
    assertEquals(Cpctl.BAD_INPUT, both.code(), both::describe);
    try (Stream<Path> files = Files.list(work)) {
      assertEquals(List.of(), files.toList(), "nothing half-written");
    }
  }

  @Test
  void verify_editedRecordedReply_namesTheCaseAndField_exit1() throws Exception {
    EvalSuite suite = frozen();
    List<EvalCase> cases = new ArrayList<>(suite.cases());
    RecordedTurn r = cases.get(1).recorded();
    cases.set(1, cases.get(1).withRecorded(new RecordedTurn(r.reply().replace("packages", "parcels"), r.result(),
        r.outcome(), r.gatePassed(), r.tools(), r.costUsd(), r.inputTokens(), r.outputTokens())));
    Path edited = work.resolve("edited.yaml");
    SuiteFiles.write(new EvalSuite(suite.suiteVersion(), suite.frozenAt(), cases), edited);
    var v = run(CliHarness.env(home), "eval", "verify", edited.toString());
    assertEquals(Cpctl.FAILED, v.code(), v::describe);
    assertTrue(v.out().contains("EDITED   " + sessionId + "#2"), v::describe);
    assertTrue(v.out().contains("recorded.reply: differs from the ledger"), v::describe);
    assertTrue(v.out().contains("OK       " + sessionId + "#1") && v.out().contains("OK       " + sessionId + "#3"),
        v::describe);
  }

  @Test
  void verify_editedInputByHand_inTheFile_isCaught() throws Exception {
    Path file = work.resolve("hand.yaml");
    SuiteFiles.write(frozen(), file);
    Files.writeString(file, Files.readString(file).replace("text: hello", "text: goodbye"));
    var v = run(CliHarness.env(home), "eval", "verify", file.toString());
    assertEquals(Cpctl.FAILED, v.code(), v::describe);
    assertTrue(v.out().contains("EDITED   " + sessionId + "#1") && v.out().contains("input.text"), v::describe);
  }

  @Test
  void verify_editedExpect_stillPasses() throws Exception {
    EvalSuite suite = frozen();
    List<EvalCase> cases = new ArrayList<>();
    for (EvalCase c : suite.cases()) {
      cases.add(c.withExpect(new Expectations(false, false, List.of("gate_check"), List.of("anything"),
          List.of("x"), List.of("^.*$"), 0.01, 10L, "be nice")));
    }
    Path file = work.resolve("expect.json");
    SuiteFiles.write(new EvalSuite(suite.suiteVersion(), suite.frozenAt(), cases), file);
    var v = run(CliHarness.env(home), "eval", "verify", file.toString());
    assertEquals(Cpctl.OK, v.code(), v::describe);
  }

  @Test
  void verify_alteredCitedEntry_isEdited_deletedOne_isMissing() throws Exception {
    Path suiteFile = work.resolve("suite.yaml");
    SuiteFiles.write(frozen(), suiteFile);

    Path altered = copyOfHome("altered");
    Path ho1 = altered.resolve("HO1/ledger/worker.jsonl");
    String text = Files.readString(ho1);
    assertTrue(text.contains("\"tool_id\":\"list_packages\""), "the tool call is in HO1");
    Files.writeString(ho1, text.replace("agent ADMIN 1.0.0", "agent ADMIN 9.9.9"));
    var v = run(CliHarness.env(altered), "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.FAILED, v.code(), v::describe);
    assertTrue(v.out().contains("EDITED   " + sessionId + "#2"), v::describe);
    assertTrue(v.out().contains("TOOL_CALL") && v.out().contains("fails verification"), v::describe);
    assertTrue(v.out().contains("OK       " + sessionId + "#1"), "turn 1 cites nothing in HO1: " + v.describe());

    Path deleted = copyOfHome("deleted");
    Path hot = deleted.resolve("HOT/ledger/governance.jsonl");
    LedgerCite exchange = frozen().cases().get(2).cites().stream().filter(c -> c.type().equals("EXCHANGE"))
        .reduce((a, b) -> b).orElseThrow();
    List<String> kept = Files.readAllLines(hot).stream().filter(l -> !l.contains(exchange.entryId())).toList();
    Files.write(hot, kept, StandardCharsets.UTF_8);
    var m = run(CliHarness.env(deleted), "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.FAILED, m.code(), m::describe);
    assertTrue(m.out().contains("MISSING  " + sessionId + "#3"), m::describe);
    assertTrue(m.out().contains(exchange.entryId() + "): not in stream hot"), m::describe);
  }

  @Test
  void verify_aLedgerWithATornTail_isReported_andNothingIsWritten() throws Exception {
    Path suiteFile = work.resolve("suite.yaml");
    SuiteFiles.write(frozen(), suiteFile);
    Path torn = copyOfHome("torn");
    Path hot = torn.resolve("HOT/ledger/governance.jsonl");
    Files.writeString(hot, "{\"entry_id\":\"LED-1234567890abcdef\",\"event_type\":\"EXCHANGE\"",
        java.nio.file.StandardOpenOption.APPEND);
    byte[] before = Files.readAllBytes(hot);
    var v = run(CliHarness.env(torn), "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.FAILED, v.code(), v::describe);
    assertTrue(v.out().contains("stream hot incomplete final line") && v.out().contains("changes nothing"),
        v::describe);
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(hot)), "eval verify only reads");
    try (Stream<Path> files = Files.list(hot.getParent())) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".torn-")), "nothing moved aside");
    }
  }

  @Test
  void verify_badSuite_isExit2_namingFileAndKey() throws Exception {
    Path file = Files.writeString(work.resolve("bad.yaml"), "cases:\n  - id: a\n    input: {text: x}\n"
        + "    expect: {matches: ['(']}\n");
    var v = run(CliHarness.env(home), "eval", "verify", file.toString());
    assertOneLineError(v, Cpctl.BAD_INPUT);
    assertTrue(v.err().contains(file + ": cases[0] (a).expect.matches[0]: is not a valid Java regular expression"),
        v::describe);
    var missing = run(CliHarness.env(home), "eval", "verify", work.resolve("nope.json").toString());
    assertOneLineError(missing, Cpctl.BAD_INPUT);
    var noArg = run(CliHarness.env(home), "eval", "verify");
    assertEquals(Cpctl.BAD_INPUT, noArg.code(), noArg::describe);
  }

  @Test
  void verify_handWrittenCase_citingNothing_isNotProven() throws Exception {
    Path file = Files.writeString(work.resolve("hand.json"), "{\"cases\": [{\"id\": \"mine\", \"input\": {\"text\": \"hi\"}}]}");
    var v = run(CliHarness.env(home), "eval", "verify", file.toString());
    assertEquals(Cpctl.FAILED, v.code(), v::describe);
    assertTrue(v.out().contains("EDITED   mine") && v.out().contains("cites no ledger entry"), v::describe);
  }

  @Test
  void frozenExpectations_holdForARunLikeTheRecord_andAChangedRunFails_inTheJunitXml() throws Exception {
    EvalSuite suite = frozen();
    ExpectationChecker checker = new ExpectationChecker();
    List<CaseReport> same = new ArrayList<>();
    List<CaseReport> changed = new ArrayList<>();
    for (EvalCase c : suite.cases()) {
      RecordedTurn r = c.recorded();
      CaseRun asRecorded = new CaseRun(c.id(), "SES-eval", r.reply(), r.result(), r.outcome(), true, r.gatePassed(),
          r.tools(), r.tools().stream().map(t -> t.tool()).toList(), List.of(), r.costUsd(), r.inputTokens(),
          r.outputTokens(), 100, null, null);
      same.add(new CaseReport(c, asRecorded, checker.check(c, asRecorded), ""));
      String reply = r.reply().replace("installed", "present");
      CaseRun other = new CaseRun(c.id(), "SES-eval", reply, r.result(), r.outcome(), true, r.gatePassed(), List.of(),
          List.of(), List.of(), r.costUsd(), r.inputTokens(), r.outputTokens(), 100, null, null);
      changed.add(new CaseReport(c, other, checker.check(c, other),
          ReplyDiff.unified(r.reply(), reply, "recorded", "run")));
    }
    assertTrue(same.stream().allMatch(CaseReport::passed), () -> new EvalReports().table(same));
    Path junit = work.resolve("junit.xml");
    new EvalReports().junit(changed, junit);
    var doc = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
    var cases = doc.getElementsByTagName("testcase");
    assertEquals(3, cases.getLength());
    assertEquals("2", doc.getDocumentElement().getAttribute("failures"), "turns 2 and 3 called a tool; the run none");
    var failure = (org.w3c.dom.Element) ((org.w3c.dom.Element) cases.item(1)).getElementsByTagName("failure").item(0);
    assertEquals("failed: tools", failure.getAttribute("message"));
    assertTrue(failure.getTextContent().contains("-16 packages are installed:\n+16 packages are present:"),
        failure.getTextContent());
  }

  /**
   * Freeze from a ledger edited so its chain breaks used to write the suite without a word (verify caught it
   * afterwards); now it refuses, exit 1, naming the stream and the entry, and writes nothing, unless
   * --from-unverified-ledger, which the suite then records.
   */
  @Test
  void freeze_fromATamperedLedger_isRefusedNamingStreamAndEntry_unlessOverridden_andThenRecorded() throws Exception {
    Path tampered = copyOfHome("tampered");
    Path ho1 = tampered.resolve("HO1/ledger/worker.jsonl");
    Files.writeString(ho1, Files.readString(ho1).replace("agent ADMIN 1.0.0", "agent ADMIN 9.9.9"));
    LedgerCite toolCall = frozen().cases().get(1).cites().stream().filter(c -> c.type().equals("TOOL_CALL"))
        .findFirst().orElseThrow();
    Path out = work.resolve("tampered.yaml");
    var refused = run(CliHarness.env(tampered), "eval", "freeze", "--session", sessionId, "--out", out.toString());
    assertEquals(Cpctl.FAILED, refused.code(), refused::describe);
    assertTrue(refused.err().contains("stream ho1 fails verification at line")
        && refused.err().contains("TOOL_CALL " + toolCall.entryId()), refused::describe);
    assertTrue(refused.err().contains("--from-unverified-ledger"), refused::describe);
    assertFalse(Files.exists(out), "nothing written");

    var forced = run(CliHarness.env(tampered), "eval", "freeze", "--session", sessionId, "--out", out.toString(),
        "--from-unverified-ledger");
    assertEquals(Cpctl.OK, forced.code(), forced::describe);
    EvalSuite suite = SuiteFiles.read(out);
    assertFalse(suite.frozenFromUnverifiedLedger().isEmpty(), "the suite records it");
    assertTrue(suite.frozenFromUnverifiedLedger().stream().anyMatch(p -> p.contains(toolCall.entryId())),
        suite.frozenFromUnverifiedLedger()::toString);
    assertTrue(Files.readString(out).contains("frozen_from_unverified_ledger:"), "in the file, by name");
    assertTrue(frozen().frozenFromUnverifiedLedger().isEmpty(), "a suite from an intact ledger records nothing");
  }

  @Test
  void freeze_limitWithSession_isRefused_itGoesWithAgent() {
    Path out = work.resolve("x.yaml");
    var r = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--limit", "1", "--out",
        out.toString());
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--limit goes with --agent"), r::describe);
    assertFalse(Files.exists(out));
  }

  /**
   * Eval verify used to read each cited stream twice: a verify of the file, then an open that read it again
   * (and, for a stream failing verification, a third time for its line numbers).
   */
  @Test
  void verify_readsEachCitedStreamOnce_intactOrNot() throws Exception {
    EvalSuite suite = frozen();
    assertTrue(readsWhileVerifying(suite, home).stream().allMatch(cp.eval.CaseVerdict::ok));

    Path altered = copyOfHome("altered-once");
    Path ho1 = altered.resolve("HO1/ledger/worker.jsonl");
    Files.writeString(ho1, Files.readString(ho1).replace("agent ADMIN 1.0.0", "agent ADMIN 9.9.9"));
    List<cp.eval.CaseVerdict> verdicts = readsWhileVerifying(suite, altered);
    assertTrue(verdicts.get(1).problems().stream().anyMatch(p -> p.contains("stream ho1 fails verification at line")
        && p.contains("(this entry is line")), verdicts::toString);
  }

  /** Verifies {@code suite} against the ledgers under {@code root}, asserting each cited stream is read once. */
  private static List<cp.eval.CaseVerdict> readsWhileVerifying(EvalSuite suite, Path root) {
    CountingStore counting = new CountingStore(cp.ledger.JsonlStore.readOnly(new cp.ledger.PlaneLayout(root),
        cp.ledger.LedgerSettings.defaults(), w -> { }));
    List<cp.eval.CaseVerdict> verdicts;
    try (Ledgers ledgers = new Ledgers(new cp.ledger.PlaneLayout(root), counting)) {
      verdicts = new cp.eval.SuiteVerifier(ledgers).verify(suite);
    }
    assertEquals(java.util.Set.of("hot", "ho2/ADMIN", "ho1"), counting.reads.keySet(), counting.reads::toString);
    counting.reads.forEach((stream, n) -> assertEquals(1, n, "reads of " + stream + ": " + counting.reads));
    return verdicts;
  }

  /**
   * A store that counts, per stream, the calls that read a whole stream: open, verify, and a query of
   * every entry on a stream it opened.
   */
  static final class CountingStore implements cp.ledger.LedgerStore {
    final cp.ledger.LedgerStore inner;
    final Map<String, Integer> reads = new java.util.TreeMap<>();

    CountingStore(cp.ledger.LedgerStore inner) {
      this.inner = inner;
    }

    @Override
    public cp.ledger.LedgerStream open(StreamId id) {
      reads.merge(id.label(), 1, Integer::sum);
      cp.ledger.LedgerStream s = inner.open(id);
      return (cp.ledger.LedgerStream) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {cp.ledger.LedgerStream.class}, (proxy, method, args) -> {
            boolean whole = method.getName().equals("readAll") || (method.getName().equals("query")
                && args[0] instanceof cp.ledger.LedgerQuery q && q.eventType() == null && q.sessionId() == null
                && q.workOrderId() == null);
            if (whole) {
              reads.merge(id.label(), 1, Integer::sum);
            }
            try {
              return method.invoke(s, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }

    @Override
    public boolean exists(StreamId id) {
      return inner.exists(id);
    }

    @Override
    public List<StreamId> streams() {
      return inner.streams();
    }

    @Override
    public cp.ledger.VerifyResult verify(StreamId id) {
      reads.merge(id.label(), 1, Integer::sum);
      return inner.verify(id);
    }

    @Override
    public List<cp.ledger.HeadCheckpoint.Finding> crossCheck(List<cp.ledger.ExpectedHead> expected) {
      return inner.crossCheck(expected);
    }

    @Override
    public String describe() {
      return inner.describe();
    }

    @Override
    public String location(StreamId id) {
      return inner.location(id);
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  private static void assertCitesAreTheLedgers(EvalCase c) {
    List<String> types = c.cites().stream().map(LedgerCite::type).toList();
    for (String t : List.of("SESSION_START", "WO_PLANNED", "EXCHANGE", "TOOL_CALL", "WO_QUALITY_GATE",
        "WO_CHAIN_COMPLETE")) {
      assertTrue(types.contains(t), t + " cited: " + types);
    }
    try (Ledgers ledgers = Ledgers.open(home)) {
      for (LedgerCite cite : c.cites()) {
        StreamId id = StreamId.parse(cite.stream());
        var entry = ledgers.get(id.tier(), id.agentClass()).byId(cite.entryId()).orElseThrow();
        assertEquals(entry.hash(), cite.hash(), cite::toString);
        assertEquals(entry.eventType(), cite.type());
        assertEquals(id.tier().name(), cite.ledger());
      }
    }
    assertNull(c.recorded().result(), "ADMIN has no output schema");
  }

  private EvalSuite frozen() {
    Path out = work.resolve("frozen-" + System.nanoTime() + ".json");
    var r = run(CliHarness.env(home), "eval", "freeze", "--session", sessionId, "--out", out.toString());
    assertEquals(Cpctl.OK, r.code(), r::describe);
    EvalSuite suite = SuiteFiles.read(out);
    try {
      Files.delete(out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return suite;
  }

  private Path copyOfHome(String name) throws IOException {
    Path to = work.resolve(name);
    try (Stream<Path> all = Files.walk(home)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(home.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
