package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.PostgresTenantCounters;
import cp.gateway.TenantCaps;
import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import cp.model.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl spend} on a PostgreSQL ledger reads the tenant counters there without writing: it used
 * to open them as a worker does, which ran the counters' migrations, so a read created
 * {@code cp_tenant_*} tables on a database that had none (here: one filled by {@code ledger migrate}).
 */
class PostgresSpendCommandTest {
  @TempDir Path home;
  @TempDir Path other;

  private static Map<String, String> env(Path planeHome, LedgerDatabase db) {
    Map<String, String> env = CliHarness.env(planeHome);
    env.putAll(TestPostgres.env(db));
    return env;
  }

  @Test
  void spendOnADatabaseWithoutCounters_readsNothingHeld_andCreatesNoTable() {
    CliHarness.chat(CliHarness.env(home));
    LedgerDatabase db = TestPostgres.freshDatabase();
    var migrate = run(env(home, db), "ledger", "migrate");
    assertEquals(Cpctl.OK, migrate.code(), migrate::describe);
    List<String> before = TestPostgres.tables(db);
    assertTrue(before.stream().noneMatch(t -> t.startsWith("cp_")), before.toString());

    var r = run(env(other, db), "spend", "--json");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(before, TestPostgres.tables(db), "a reading command created tables\n" + r.describe());
    JsonNode report = Json.parse(r.out().strip());
    assertEquals(0.0, report.get("reserved_usd").asDouble(), 0.0, r.out());
    assertEquals(1, report.get("groups").size(), "the ledger's calls are still reported: " + r.out());
    var text = run(env(other, db), "spend");
    assertEquals(Cpctl.OK, text.code(), text::describe);
    assertEquals(before, TestPostgres.tables(db));
  }

  @Test
  void spendWithACountersMigrationPending_refusesInOneLine_andAppliesNothing() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    CliHarness.chat(env(home, db));
    TestPostgres.sql(db, "DROP TABLE IF EXISTS cp_tenant_days, cp_tenant_reservations, cp_tenants,"
        + " cp_spend_schema_history CASCADE");
    Flyway.configure().dataSource(db.url(), db.user(), db.password()).locations("classpath:db/spend")
        .table("cp_spend_schema_history").baselineVersion("0").baselineOnMigrate(true).target("1").load().migrate();
    List<String> before = TestPostgres.tables(db);

    var r = run(env(other, db), "spend");

    assertEquals(before, TestPostgres.tables(db), "a reading command applied a migration\n" + r.describe());
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("tenant counters") && r.err().contains("pending")
        && r.err().contains("only reads applies no migration"), r::describe);
  }

  @Test
  void spendOnMigratedCounters_readsWhatIsHeld() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    CliHarness.chat(env(home, db));
    Instant now = Instant.now();
    try (PostgresTenantCounters counters = PostgresTenantCounters.open(db)) {
      assertTrue(counters.reserve("acme", new TenantCaps.Caps(Optional.of(3.0), Optional.empty()),
          "EXCHANGE/SES-00000001/turn-0001/run/act", 0.25, now, now.plusSeconds(600)).granted());
    }
    List<String> before = TestPostgres.tables(db);

    var r = run(env(other, db), "spend", "--json");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals(0.25, Json.parse(r.out().strip()).get("reserved_by_tenant").get("acme").asDouble(), 1e-12, r.out());
    assertEquals(before, TestPostgres.tables(db));
  }
}
