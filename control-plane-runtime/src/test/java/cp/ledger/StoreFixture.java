package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One ledger store under test, with the tampering an operator with a text editor (JSONL) or psql
 * (PostgreSQL) could do to it. {@link LedgerStoreBehaviourTest} runs the same behaviour against each.
 */
abstract class StoreFixture implements AutoCloseable {
  private LedgerStore store;

  abstract String name();

  abstract LedgerStore openStore(LedgerSettings settings);

  /** Changes the reason of entry {@code n} (1-based) without fixing its hash. */
  abstract void editReason(StreamId id, long n, String reason);

  /** Removes entry {@code n}. */
  abstract void deleteEntry(StreamId id, long n);

  /** Removes the last {@code k} entries, leaving the head record as it was. */
  abstract void deleteTail(StreamId id, int k);

  /** Puts {@code forged} (a line with a valid hash) in after entry {@code n}, moving the rest down. */
  abstract void insertAfter(StreamId id, long n, ObjectNode forged);

  LedgerStore store() {
    if (store == null) {
      store = openStore(LedgerSettings.all(Durability.FSYNC_EACH));
    }
    return store;
  }

  /** Closes the store and opens it again on the same data (a restarted process). */
  LedgerStore reopen() {
    close();
    return store();
  }

  @Override
  public void close() {
    if (store != null) {
      store.close();
      store = null;
    }
  }

  @Override
  public String toString() {
    return name();
  }

  /** A JSONL entry line that links to {@code prevHash} and carries a valid hash of its own. */
  static ObjectNode forged(String prevHash) {
    ObjectNode n = LedgerEntry.builder("FORGED").reason("inserted").metadata(Json.object().put("session_id", "SES-f"))
        .build().toAppendJson("LED-f0f0f0f0f0f0f0f0", "2026-01-01T00:00:00Z", prevHash, null);
    n.put("hash", ChainCodec.hashOf(n));
    return n;
  }

  static final class Jsonl extends StoreFixture {
    private final Path root;

    Jsonl(Path root) {
      this.root = root;
    }

    @Override
    String name() {
      return "jsonl";
    }

    @Override
    LedgerStore openStore(LedgerSettings settings) {
      return new JsonlStore(new PlaneLayout(root), settings);
    }

    private Path file(StreamId id) {
      return new PlaneLayout(root).ledgerPath(id.tier(), id.agentClass());
    }

    private List<String> lines(StreamId id) {
      try {
        return new ArrayList<>(Files.readAllLines(file(id), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void rewrite(StreamId id, List<String> lines) {
      close();
      try {
        Files.writeString(file(id), lines.isEmpty() ? "" : String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    void editReason(StreamId id, long n, String reason) {
      List<String> lines = lines(id);
      ObjectNode line = (ObjectNode) Json.parse(lines.get((int) n - 1));
      line.put("reason", reason);
      lines.set((int) n - 1, Json.write(line));
      rewrite(id, lines);
    }

    @Override
    void deleteEntry(StreamId id, long n) {
      List<String> lines = lines(id);
      lines.remove((int) n - 1);
      rewrite(id, lines);
    }

    @Override
    void deleteTail(StreamId id, int k) {
      List<String> lines = lines(id);
      rewrite(id, lines.subList(0, lines.size() - k));
    }

    @Override
    void insertAfter(StreamId id, long n, ObjectNode forged) {
      List<String> lines = lines(id);
      lines.add((int) n, Json.write(forged));
      rewrite(id, lines);
    }
  }

  static final class Postgres extends StoreFixture {
    private final LedgerDatabase db = TestPostgres.freshDatabase();

    @Override
    String name() {
      return "postgresql";
    }

    LedgerDatabase database() {
      return db;
    }

    @Override
    LedgerStore openStore(LedgerSettings settings) {
      return PostgresStore.open(db, settings.withDatabase(db));
    }

    private static String q(String s) {
      return "'" + s.replace("'", "''") + "'";
    }

    @Override
    void editReason(StreamId id, long n, String reason) {
      // What an UPDATE of the row does: the body (and its columns) change, the hash is left as it was.
      TestPostgres.tamper(db, "UPDATE ledger_entry SET body = jsonb_set(body::jsonb, '{reason}', to_jsonb("
          + q(reason) + "::text))::text WHERE stream = " + q(id.label()) + " AND seq = " + n);
    }

    @Override
    void deleteEntry(StreamId id, long n) {
      TestPostgres.tamper(db, "DELETE FROM ledger_entry WHERE stream = " + q(id.label()) + " AND seq = " + n);
    }

    @Override
    void deleteTail(StreamId id, int k) {
      TestPostgres.tamper(db, "DELETE FROM ledger_entry WHERE stream = " + q(id.label()) + " AND seq > (SELECT max(seq) - "
          + k + " FROM ledger_entry WHERE stream = " + q(id.label()) + ")");
    }

    @Override
    void insertAfter(StreamId id, long n, ObjectNode forged) {
      PostgresTamper t = new PostgresTamper(db);
      t.renumberAfter(id, n, 1);
      t.insertRow(id, n + 1, forged);
    }
  }
}
