package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/** Issue 20 §3: a schema a DBA accepts: types that serve queries, migrations on the DBA's terms, append-only rows. */
class PostgresSchemaTest {
  static final StreamId HOT = new StreamId(Tier.HOT, null);

  private static PostgresStore open(LedgerDatabase db) {
    return PostgresStore.open(db, LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db));
  }

  private static String one(LedgerDatabase db, String query) {
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** The database as issue 13's build left it: V1 applied the way it applied it, rows in it. */
  private static LedgerDatabase atVersion1(LedgerDatabase db) {
    Flyway.configure().dataSource(db.url(), db.user(), db.password()).locations(LedgerSchema.MIGRATIONS)
        .table(LedgerSchema.HISTORY_TABLE).baselineOnMigrate(true).baselineVersion("0").target("1").load().migrate();
    return db;
  }

  @Test
  void manyProcessesOpeningAFreshSchemaAtOnce_allStart_andMigrateItOnce() throws Exception {
    // The flaky two-JVM test's cause, made to happen on purpose: six openers racing on each of four fresh schemas.
    for (int round = 0; round < 4; round++) {
      LedgerDatabase db = TestPostgres.freshDatabase();
      int openers = 6;
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(openers);
      List<Future<Long>> opened = new ArrayList<>();
      for (int i = 0; i < openers; i++) {
        int writer = i;
        opened.add(pool.submit(() -> {
          go.await();
          try (PostgresStore store = open(db)) {
            return store.open(new StreamId(Tier.HO2, "W" + writer)).size();
          }
        }));
      }
      go.countDown();
      for (Future<Long> f : opened) {
        assertEquals(0L, f.get(), "every opener started");
      }
      pool.shutdown();
      assertEquals("2", one(db, "SELECT count(*) FROM " + LedgerSchema.HISTORY_TABLE + " WHERE success"),
          "V1 and V2 applied once each");
    }
  }

  @Test
  void columnsServeQueries_timeAsTimestamptz_metadataAsJsonb_bodyTheHashedText() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    try (PostgresStore store = open(db)) {
      LedgerStream hot = store.open(HOT);
      String id = hot.write(LedgerEntry.builder("EXCHANGE").metadata(Json.object().put("session_id", "SES-1")
          .put("cost", 0.25).put("input_tokens", 7)).build());
      LedgerEntry back = hot.byId(id).orElseThrow();
      assertEquals("timestamp with time zone", one(db, "SELECT data_type FROM information_schema.columns"
          + " WHERE table_schema = current_schema() AND table_name = 'ledger_entry' AND column_name = 'ts'"));
      assertEquals("jsonb", one(db, "SELECT data_type FROM information_schema.columns"
          + " WHERE table_schema = current_schema() AND table_name = 'ledger_entry' AND column_name = 'metadata'"));
      assertEquals("0.25", one(db, "SELECT sum((metadata ->> 'cost')::numeric) FROM ledger_entry WHERE stream = 'hot'"));
      assertEquals("t", one(db, "SELECT ts = '" + back.timestamp() + "'::timestamptz FROM ledger_entry"));
      assertTrue(hot.verify().ok(), hot.verify().reason());
      assertEquals(back.toString(), LedgerEntry.fromJson(Json.parse(one(db, "SELECT body FROM ledger_entry"))).toString(),
          "body is still the line the chain hashes");
    }
  }

  @Test
  void rowsAreAppendOnly_updateDeleteAndTruncateAreRefusedByTheDatabase_repairStillWorks() {
    LedgerDatabase db = TestPostgres.freshDatabase();
    try (PostgresStore store = open(db)) {
      LedgerStream hot = store.open(HOT);
      for (int i = 0; i < 3; i++) {
        hot.write(LedgerEntry.builder("EVENT").metadata(Json.object().put("i", i)).build());
      }
      for (String refused : List.of("UPDATE ledger_entry SET body = body WHERE seq = 2",
          "DELETE FROM ledger_entry WHERE seq = 3", "TRUNCATE ledger_entry CASCADE",
          "UPDATE ledger_stream SET entries = 1", "DELETE FROM ledger_stream")) {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestPostgres.sql(db, refused), refused);
        assertTrue(e.getMessage().contains("the ledger is append-only"), refused + ": " + e.getMessage());
      }
      assertTrue(hot.verify().ok(), "nothing changed");
      // Repair's own transaction is let through: a row tampered with by a superuser is moved to quarantine.
      TestPostgres.tamper(db, "UPDATE ledger_entry SET body = replace(body, '\"i\":1', '\"i\":9') WHERE seq = 2");
      assertFalse(hot.verify().ok());
      assertTrue(hot.repair().orElseThrow().contains("(2 rows)"));
      assertTrue(hot.verify().ok(), hot.verify().reason());
      assertEquals("2", one(db, "SELECT count(*) FROM ledger_quarantine"));
      IllegalStateException kept = assertThrows(IllegalStateException.class,
          () -> TestPostgres.sql(db, "DELETE FROM ledger_quarantine"));
      assertTrue(kept.getMessage().contains("the ledger is append-only"), kept.getMessage());
    }
  }

  @Test
  void anIssue13Database_isMigratedWithItsRows_andStillVerifies() {
    LedgerDatabase db = atVersion1(TestPostgres.freshDatabase());
    // A row as issue 13's build wrote it: ts as text, a model reply with a NUL (which jsonb cannot hold).
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
      LedgerEntry e = LedgerEntry.builder("EXCHANGE").entryId("LED-0000000000000001")
          .timestamp("2026-11-20T10:00:00.123456Z").metadata(Json.object().put("session_id", "SES-1")
              .put("response", "a\u0000b")).build();
      var node = e.toAppendJson(e.entryId(), e.timestamp(), ChainCodec.GENESIS, null);
      String hash = ChainCodec.hashOf(node);
      node.put("hash", hash);
      try (var ps = c.prepareStatement("INSERT INTO ledger_stream (stream, tier, entries, last_hash) VALUES"
          + " ('hot', 'hot', 1, ?)")) {
        ps.setString(1, hash);
        ps.executeUpdate();
      }
      try (var ps = c.prepareStatement("INSERT INTO ledger_entry (stream, seq, entry_id, ts, event_type, session_id,"
          + " prev_hash, hash, body) VALUES ('hot', 1, ?, ?, 'EXCHANGE', 'SES-1', ?, ?, ?)")) {
        ps.setString(1, e.entryId());
        ps.setString(2, e.timestamp());
        ps.setString(3, ChainCodec.GENESIS);
        ps.setString(4, hash);
        ps.setString(5, Json.write(node));
        ps.executeUpdate();
      }
    } catch (SQLException ex) {
      throw new IllegalStateException(ex);
    }
    try (PostgresStore store = open(db)) {
      assertTrue(store.open(HOT).verify().ok(), store.open(HOT).verify().reason());
      assertEquals("a\ufffdb", one(db, "SELECT metadata ->> 'response' FROM ledger_entry"),
          "the NUL reads as U+FFFD in jsonb; body keeps the hashed text");
      store.open(HOT).write(LedgerEntry.builder("EXCHANGE").metadata(Json.object().put("session_id", "SES-1")).build());
      assertTrue(store.open(HOT).verify().ok());
    }
  }

  @Test
  void migrateValidate_refusesAPendingMigrationInOneLine_off_trustsTheSchema_auto_appliesIt() {
    LedgerDatabase db = atVersion1(TestPostgres.freshDatabase());
    LedgerStoreUnavailableException e = assertThrows(LedgerStoreUnavailableException.class,
        () -> open(db.withMigration(LedgerMigration.VALIDATE)));
    assertTrue(e.getMessage().startsWith("the ledger schema in jdbc:postgresql://") && e.getMessage()
        .contains("is not up to date: V2 (timestamptz jsonb append only) pending") && !e.getMessage().contains("\n"),
        e.getMessage());
    try (PostgresStore store = open(db.withMigration(LedgerMigration.OFF))) {
      assertEquals("1", one(db, "SELECT max(version) FROM " + LedgerSchema.HISTORY_TABLE), "off applies nothing");
      assertEquals(0, store.streams().size());
    }
    open(db).close();
    assertEquals("2", one(db, "SELECT max(version) FROM " + LedgerSchema.HISTORY_TABLE));
    open(db.withMigration(LedgerMigration.VALIDATE)).close();
    assertEquals(LedgerMigration.VALIDATE, LedgerDatabase.fromEnv(Map.of("CP_LEDGER_URL", "jdbc:postgresql://h/d",
        "CP_LEDGER_MIGRATE", "Validate")).orElseThrow().migration());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> LedgerDatabase.fromEnv(Map.of(
        "CP_LEDGER_URL", "jdbc:postgresql://h/d", "CP_LEDGER_MIGRATE", "sometimes")));
    assertEquals("CP_LEDGER_MIGRATE='sometimes' is not a migration mode (known: auto, validate, off)", bad.getMessage());
  }
}
