package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cpctl with {@code CP_LEDGER_URL}: chat, show, ledger verify|query|repair|migrate|export against a
 * real PostgreSQL (embedded, or {@code CP_TEST_POSTGRES_URL}), and a database that is down at start.
 */
class PostgresLedgerCommandsTest {
  @TempDir Path home;
  @TempDir Path other;

  private Map<String, String> env(Path planeHome, LedgerDatabase db) {
    Map<String, String> env = CliHarness.env(planeHome);
    env.putAll(TestPostgres.env(db));
    return env;
  }

  @Test
  void chatWithLedgerUrl_writesToTheDatabase_andAnotherHomeSeesAndVerifiesTheSession() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    String session = CliHarness.chat(env(home, db));
    assertFalse(Files.exists(home.resolve("HOT/ledger/governance.jsonl")), "no JSONL ledger with CP_LEDGER_URL");

    var verify = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    List<String> ok = verify.out().lines().filter(l -> l.startsWith("OK ")).toList();
    assertEquals(3, ok.size(), verify::describe);
    assertTrue(ok.get(0).contains("stream hot in jdbc:postgresql://"), verify::describe);

    var show = run(env(other, db), "show", session);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    assertTrue(show.out().contains("hello"), show::describe);

    var query = run(env(other, db), "ledger", "query", "--tier", "hot", "--event", "EXCHANGE", "--session", session);
    assertEquals(Cpctl.OK, query.code(), query::describe);
    assertTrue(query.out().lines().count() >= 2, query::describe);
  }

  @Test
  void tamperedRow_isNamedByVerify_andRepairQuarantinesIt() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    CliHarness.chat(env(home, db));
    TestPostgres.tamper(db, "UPDATE ledger_entry SET body = replace(body, '\"reason\":\"', '\"reason\":\"edited: ')"
        + " WHERE stream = 'hot' AND seq = 2");
    var verify = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.FAILED, verify.code(), verify::describe);
    List<String> fail = verify.out().lines().filter(l -> l.startsWith("FAIL")).toList();
    assertEquals(1, fail.size(), verify::describe);
    assertTrue(fail.get(0).contains("stream hot") && fail.get(0).contains("line 2"), verify::describe);

    var repair = run(env(other, db), "ledger", "repair", "--tier", "hot");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    assertTrue(repair.out().contains("ledger_quarantine"), repair::describe);
    var again = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.OK, again.code(), again::describe);
  }

  @Test
  void migrate_copiesJsonlKeepingIdsAndHashes_twiceCopiesNothing_andExportGivesTheSameBytes() throws Exception {
    String session = CliHarness.chat(CliHarness.env(home));
    LedgerDatabase db = TestPostgres.freshDatabase();
    var first = run(env(home, db), "ledger", "migrate");
    assertEquals(Cpctl.OK, first.code(), first::describe);
    assertEquals(3, first.out().lines().filter(l -> l.startsWith("OK ") && !l.contains("(0 entries copied")).count(),
        first::describe);
    var second = run(env(home, db), "ledger", "migrate");
    assertEquals(Cpctl.OK, second.code(), second::describe);
    assertEquals(3, second.out().lines().filter(l -> l.contains("(0 entries copied")).count(), second::describe);

    var verify = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.OK, verify.code(), verify::describe);
    var show = run(env(other, db), "show", session);
    assertEquals(Cpctl.OK, show.code(), show::describe);

    for (String[] s : new String[][] {{"hot", "HOT/ledger/governance.jsonl"}, {"ho1", "HO1/ledger/worker.jsonl"},
        {"ho2", "HO2/ledger/ADMIN/workorder.jsonl"}}) {
      Path out = other.resolve("export-" + s[0] + ".jsonl");
      var export = run(env(other, db), "ledger", "export", "--tier", s[0], "--out", out.toString());
      assertEquals(Cpctl.OK, export.code(), export::describe);
      assertArrayEquals(Files.readAllBytes(home.resolve(s[1])), Files.readAllBytes(out),
          s[0] + ": the exported stream is the JSONL file, byte for byte");
    }
  }

  /**
   * Issue 20 §1: a stream deleted with its head row is named by the heads the other streams recorded;
   * a database emptied of every stream is named only by a head pinned from an earlier export.
   */
  @Test
  void deletedStreamIsNamed_andAnEmptiedDatabaseFailsVerifyWithTheHeadExportPrinted() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    CliHarness.chat(env(home, db));
    var export = run(env(other, db), "ledger", "export", "--tier", "hot", "--out", other.resolve("hot.jsonl").toString());
    assertEquals(Cpctl.OK, export.code(), export::describe);
    String pin = export.out().lines().filter(l -> l.startsWith("head ")).findFirst().orElseThrow()
        .split(" ")[1];
    assertTrue(pin.matches("hot=\\d+:[0-9a-f]{64}"), export::describe);
    assertEquals(Cpctl.OK, run(env(other, db), "ledger", "verify", "--expect-head", pin).code());

    TestPostgres.tamper(db, "DELETE FROM ledger_entry WHERE stream = 'ho1'", "DELETE FROM ledger_stream WHERE stream = 'ho1'");
    var deleted = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.FAILED, deleted.code(), deleted::describe);
    assertTrue(deleted.out().lines().anyMatch(l -> l.startsWith("FAIL  ho1")
        && l.matches(".*stream ho1 is missing: its head recorded in (HOT|HO2/ADMIN) at LED-.*")), deleted::describe);

    TestPostgres.tamper(db, "DELETE FROM ledger_entry", "DELETE FROM ledger_stream");
    var empty = run(env(other, db), "ledger", "verify");
    assertEquals(Cpctl.OK, empty.code(), "nothing inside an empty database says it held anything");
    assertTrue(empty.out().contains("nothing to verify") && empty.out().contains("--expect-head"), empty::describe);
    var pinned = run(env(other, db), "ledger", "verify", "--expect-head", pin);
    assertEquals(Cpctl.FAILED, pinned.code(), pinned::describe);
    assertTrue(pinned.out().contains("FAIL  hot          stream hot is missing: its head given by --expect-head " + pin),
        pinned::describe);
    var fromFile = run(env(other, db), "ledger", "verify", "--expect-head", "hot=" + other.resolve("hot.jsonl"));
    assertEquals(Cpctl.FAILED, fromFile.code(), fromFile::describe);
    var bad = run(env(other, db), "ledger", "verify", "--expect-head", "hot=12");
    assertOneLineError(bad, Cpctl.BAD_INPUT);
    assertTrue(bad.err().contains("--expect-head hot=12: expected STREAM=ENTRIES:HASH"), bad::describe);
  }

  @Test
  void migrateWithoutLedgerUrl_isRefusedInOneLine() {
    CliHarness.chat(CliHarness.env(home));
    assertOneLineError(run(CliHarness.env(home), "ledger", "migrate"), Cpctl.BAD_INPUT);
  }

  @Test
  void databaseDownAtStart_exits2WithOneLineNamingTheUrlWithoutItsPassword() throws Exception {
    int port = CliHarness.closedPort();
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_LEDGER_URL", "jdbc:postgresql://127.0.0.1:" + port + "/ledgers?user=cp&password=s3cr3t-in-url");
    env.put("CP_LEDGER_PASSWORD", "s3cr3t-in-env");
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    var config = run(env, "config");
    assertEquals(Cpctl.OK, config.code(), config::describe);
    assertTrue(config.out().contains("PostgreSQL jdbc:postgresql://127.0.0.1:" + port + "/ledgers?user=cp&password=***"),
        config::describe);
    assertFalse(config.out().contains("s3cr3t") || config.err().contains("s3cr3t"), config::describe);
    for (String[] args : new String[][] {{"worker"}, {"ledger", "verify"}}) {
      var r = run(env, args);
      assertOneLineError(r, Cpctl.BAD_INPUT);
      assertTrue(r.err().contains("jdbc:postgresql://127.0.0.1:" + port + "/ledgers"), r::describe);
      assertFalse(r.err().contains("s3cr3t") || r.out().contains("s3cr3t"), r::describe);
    }
  }

  /**
   * The commands that only read used to migrate the schema (CP_LEDGER_MIGRATE=auto, the default) when
   * they opened the store: a fresh database got every table. Now they apply nothing and say so.
   */
  @Test
  void readingCommandsOnADatabaseWithoutTheSchema_createNothing_andSaySo() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    for (List<String> cmd : List.of(List.of("sessions", "--ledger"), List.of("ledger", "query", "--tier", "hot"),
        List.of("show", "SES-0123abcd"), List.of("spend"),
        List.of("eval", "freeze", "--agent", "ADMIN", "--out", other.resolve("s.yaml").toString()),
        List.of("ledger", "verify"), List.of("gate-check"))) {
      var r = run(env(home, db), cmd.toArray(String[]::new));
      assertEquals(List.of(), TestPostgres.tables(db), cmd + " created tables\n" + r.describe());
      assertOneLineError(r, Cpctl.BAD_INPUT);
      assertTrue(r.err().contains("pending") && r.err().contains("only reads applies no migration"), r::describe);
    }
    String session = CliHarness.chat(env(home, db));
    List<String> migrated = TestPostgres.tables(db);
    var show = run(env(other, db), "show", session);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    assertEquals(migrated, TestPostgres.tables(db));
  }
}
