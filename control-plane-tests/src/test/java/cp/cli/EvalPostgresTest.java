package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.eval.EvalSuite;
import cp.eval.LedgerCite;
import cp.eval.SuiteFiles;
import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import cp.model.TurnOutcome;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 on the PostgreSQL store (CP_LEDGER_URL, the embedded PostgreSQL the other store tests
 * use): a session with a tool call is frozen from the database, verifies, and a cited row changed
 * or deleted by someone who bypassed the append-only triggers is EDITED or MISSING.
 */
class EvalPostgresTest {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void freezeAndVerify_onPostgres_catchAChangedAndADeletedRow() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    Map<String, String> ledger = new HashMap<>();
    ledger.put("CP_LEDGER_URL", db.url());
    ledger.put("CP_LEDGER_USER", db.user());
    if (db.password() != null) {
      ledger.put("CP_LEDGER_PASSWORD", db.password());
    }
    String sid;
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, ledger), PlaneRuntime::builtinTools)) {
      sid = plane.client.startSession("ADMIN");
      assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello").outcome());
      assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "what packages are installed?").outcome());
      plane.client.end(sid);
    }
    Map<String, String> env = CliHarness.env(home);
    env.putAll(ledger);
    Path suiteFile = work.resolve("suite.json");
    var f = run(env, "eval", "freeze", "--session", sid, "--out", suiteFile.toString());
    assertEquals(Cpctl.OK, f.code(), f::describe);
    EvalSuite suite = SuiteFiles.read(suiteFile);
    assertEquals(2, suite.cases().size());
    assertEquals("list_packages", suite.cases().get(1).recorded().tools().get(0).tool());
    var ok = run(env, "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.OK, ok.code(), ok::describe);

    LedgerCite toolCall = suite.cases().get(1).cites().stream().filter(c -> c.type().equals("TOOL_CALL")).findFirst()
        .orElseThrow();
    TestPostgres.tamper(db, "UPDATE ledger_entry SET body = replace(body, 'agent ADMIN 1.0.0', 'agent ADMIN 9.9.9')"
        + " WHERE entry_id = '" + toolCall.entryId() + "'");
    var edited = run(env, "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.FAILED, edited.code(), edited::describe);
    assertTrue(edited.out().contains("EDITED   " + sid + "#2") && edited.out().contains(toolCall.entryId()),
        edited::describe);
    assertTrue(edited.out().contains("OK       " + sid + "#1"), edited::describe);

    LedgerCite gate = suite.cases().get(0).cites().stream().filter(c -> c.type().equals("WO_QUALITY_GATE")).findFirst()
        .orElseThrow();
    TestPostgres.tamper(db, "DELETE FROM ledger_entry WHERE entry_id = '" + gate.entryId() + "'");
    var missing = run(env, "eval", "verify", suiteFile.toString());
    assertEquals(Cpctl.FAILED, missing.code(), missing::describe);
    assertTrue(missing.out().contains("MISSING  " + sid + "#1") && missing.out().contains(gate.entryId()
        + "): not in stream ho2/ADMIN"), missing::describe);
  }
}
