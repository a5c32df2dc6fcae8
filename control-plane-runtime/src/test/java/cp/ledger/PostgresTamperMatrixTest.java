package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 §1: 24 ways to tamper with a plane's ledgers in PostgreSQL, each done to a fresh
 * database holding one two-turn session, each checked by the plane's verify ({@link
 * PlaneVerification}): without the chain key, with it, and with the heads an operator pinned from an
 * earlier export ({@code --expect-head}). Before issue 20 the store recorded no cross-stream heads
 * and no MAC on its head rows: verify caught 12 of 24 without the key and 16 with it (measured with
 * this test on that code); now 21 without the key, 23 with it, and 23 without the key but with
 * the heads pinned.
 */
class PostgresTamperMatrixTest {
  static final ChainKey KEY = ChainKey.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
      20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
  static final StreamId HOT = PlaneScript.HOT;
  static final StreamId HO1 = PlaneScript.HO1;
  static final StreamId HO2 = PlaneScript.HO2;

  /** The cases, in the order the README lists them. */
  static Map<String, Consumer<PostgresTamper>> cases() {
    Map<String, Consumer<PostgresTamper>> m = new LinkedHashMap<>();
    m.put("edit a body, hash kept", t -> {
      ObjectNode n = t.rows(HOT).get(2).node();
      n.put("reason", "forged");
      t.setRow(HOT, 3, n);
    });
    m.put("edit an indexed column", t -> t.sql("UPDATE ledger_entry SET session_id = 'SES-other' WHERE stream = 'ho1'"
        + " AND seq = 2"));
    m.put("edit a body and re-hash that row", t -> {
      ObjectNode n = t.rows(HOT).get(2).node();
      n.put("reason", "forged");
      n.remove("hash");
      n.put("hash", ChainCodec.hashOf(n));
      t.setRow(HOT, 3, n);
    });
    m.put("HO1 re-hashed from row 2, head fixed", t -> {
      t.editAndRehashFrom(HO1, 2);
      t.fixHead(HO1);
    });
    m.put("HOT re-hashed from row 2, head fixed", t -> {
      t.editAndRehashFrom(HOT, 2);
      t.fixHead(HOT);
    });
    m.put("HO2 re-hashed from row 2, head fixed", t -> {
      t.editAndRehashFrom(HO2, 2);
      t.fixHead(HO2);
    });
    m.put("delete a middle row", t -> t.sql("DELETE FROM ledger_entry WHERE stream = 'hot' AND seq = 3"));
    m.put("delete the first row, renumber", t -> {
      t.sql("DELETE FROM ledger_entry WHERE stream = 'ho1' AND seq = 1");
      t.renumberAfter(HO1, 1, -1);
      t.fixHead(HO1);
    });
    m.put("delete the last row, head kept", t -> t.deleteFrom(HOT, t.rows(HOT).size()));
    m.put("delete HOT's last 2 rows, head fixed", t -> {
      t.deleteFrom(HOT, t.rows(HOT).size() - 1);
      t.fixHead(HOT);
    });
    m.put("delete HO1's last 3 rows, head fixed", t -> {
      t.deleteFrom(HO1, t.rows(HO1).size() - 2);
      t.fixHead(HO1);
    });
    m.put("delete HO2's last row, head fixed", t -> {
      t.deleteFrom(HO2, t.rows(HO2).size());
      t.fixHead(HO2);
    });
    m.put("delete stream HO1 with its head", t -> t.deleteStream(HO1));
    m.put("delete stream HO2 with its head", t -> t.deleteStream(HO2));
    m.put("delete stream HOT with its head", t -> t.deleteStream(HOT));
    m.put("delete every row of HO1, head kept", t -> t.deleteFrom(HO1, 1));
    m.put("delete everything (an empty database)", t -> {
      t.deleteStream(HOT);
      t.deleteStream(HO1);
      t.deleteStream(HO2);
    });
    m.put("insert a forged row in the middle", t -> {
      String prev = t.rows(HOT).get(2).node().path("hash").asText();
      t.renumberAfter(HOT, 3, 1);
      t.insertRow(HOT, 4, StoreFixture.forged(prev));
      t.fixHead(HOT);
    });
    m.put("append a forged row, head fixed", t -> {
      List<PostgresTamper.Row> rows = t.rows(HOT);
      t.insertRow(HOT, rows.size() + 1, StoreFixture.forged(rows.get(rows.size() - 1).node().path("hash").asText()));
      t.fixHead(HOT);
    });
    m.put("swap two rows", t -> t.sql("UPDATE ledger_entry SET seq = -2 WHERE stream = 'ho1' AND seq = 2",
        "UPDATE ledger_entry SET seq = 2 WHERE stream = 'ho1' AND seq = 3",
        "UPDATE ledger_entry SET seq = 3 WHERE stream = 'ho1' AND seq = -2"));
    m.put("head row counts more", t -> t.sql("UPDATE ledger_stream SET entries = entries + 1 WHERE stream = 'ho2/ADMIN'"));
    m.put("a row of another stream copied in", t -> t.setRow(HO2, 2, t.rows(HO1).get(1).node()));
    m.put("edit the prev_hash column", t -> t.sql("UPDATE ledger_entry SET prev_hash = '" + "a".repeat(64)
        + "' WHERE stream = 'hot' AND seq = 2"));
    m.put("delete HOT's SESSION_END, head fixed", t -> {
      t.deleteFrom(HOT, t.rows(HOT).size());
      t.fixHead(HOT);
    });
    return m;
  }

  private record Outcome(int caught, List<String> missed) {}

  private Outcome run(ChainKey key, boolean pinHeads) {
    return run(key, pinHeads, cases());
  }

  private Outcome run(ChainKey key, boolean pinHeads, Map<String, Consumer<PostgresTamper>> cases) {
    int caught = 0;
    List<String> missed = new ArrayList<>();
    for (Map.Entry<String, Consumer<PostgresTamper>> c : cases.entrySet()) {
      LedgerDatabase db = TestPostgres.freshDatabase();
      LedgerSettings settings = LedgerSettings.all(Durability.FSYNC_EACH).withKey(key).withDatabase(db);
      List<ExpectedHead> pinned = new ArrayList<>();
      try (PostgresStore store = PostgresStore.open(db, settings)) {
        PlaneScript.session(store, "SES-0000beef", 2);
        if (pinHeads) {
          for (StreamId id : List.of(HOT, HO1, HO2)) {
            List<LedgerEntry> all = store.open(id).readAll();
            pinned.add(new ExpectedHead(id, all.size(), all.get(all.size() - 1).hash(), "--expect-head " + id.label()));
          }
        }
        assertEquals(true, PlaneVerification.run(store, pinned).ok(), "intact before " + c.getKey());
      }
      c.getValue().accept(new PostgresTamper(db));
      try (PostgresStore store = PostgresStore.open(db, settings)) {
        PlaneVerification.Report r = PlaneVerification.run(store, pinned);
        if (r.ok()) {
          missed.add(c.getKey());
        } else {
          caught++;
        }
      }
    }
    return new Outcome(caught, missed);
  }

  @Test
  void everyTamperingIsNamed_exceptWhatNoStoreCanProve() {
    Outcome plain = run(null, false);
    Outcome keyed = run(KEY, false);
    Outcome pinned = run(null, true);
    // With both, the two cases each one misses: every case is named.
    Map<String, Consumer<PostgresTamper>> both = new LinkedHashMap<>();
    for (String name : List.of("delete everything (an empty database)", "append a forged row, head fixed")) {
      both.put(name, cases().get(name));
    }
    assertEquals(List.of(), run(KEY, true, both).missed());
    System.out.printf("PostgresTamperMatrixTest: caught %d of %d without the key (missed %s), %d with it (missed %s),"
        + " %d with pinned heads (missed %s)%n", plain.caught(), cases().size(), plain.missed(), keyed.caught(),
        keyed.missed(), pinned.caught(), pinned.missed());
    // Without the key nothing inside the database proves its last entries after the last head recorded of them
    // elsewhere (HOT's SESSION_END), nor that an emptied database held anything (--expect-head does), nor that
    // an entry appended with a valid plain SHA-256 after the last one was not written by the plane (the key does).
    assertEquals(List.of("delete everything (an empty database)", "append a forged row, head fixed",
        "delete HOT's SESSION_END, head fixed"), plain.missed());
    assertEquals(List.of("delete everything (an empty database)"), keyed.missed());
    assertEquals(List.of("append a forged row, head fixed"), pinned.missed());
  }
}
