package cp.ledger;

import cp.model.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The readers of one JSONL ledger: by the in-memory index ({@link LedgerIndex}) to the lines they
 * return, so a read touches only those lines.
 *
 * <p>Thread-safety: none of its own; the owning {@link Ledger} calls every method under its lock and
 * the file lock, after catching up with other processes.
 */
final class JsonlReads {
  private final LedgerFile file;
  private final LedgerLoader loader;

  JsonlReads(LedgerFile file, LedgerLoader loader) {
    this.file = file;
    this.loader = loader;
  }

  List<LedgerEntry> query(LedgerQuery q) throws IOException {
    List<LedgerEntry> out = new ArrayList<>();
    for (int row : loader.index().select(q)) {
      out.add(readRow(loader.index().row(row)));
    }
    return out;
  }

  /** Newest first until {@code visitor} returns false: the latest few of a long history read only those. */
  void visitNewestFirst(LedgerQuery q, Predicate<LedgerEntry> visitor) throws IOException {
    List<Integer> rows = loader.index().select(q);
    for (int k = rows.size() - 1; k >= 0; k--) {
      if (!visitor.test(readRow(loader.index().row(rows.get(k))))) {
        break;
      }
    }
  }

  Optional<LedgerEntry> byId(String entryId) throws IOException {
    Integer row = loader.index().rowOf(StoredText.clean(entryId));
    return row == null ? Optional.empty() : Optional.of(readRow(loader.index().row(row)));
  }

  Optional<String> idForKey(String idempotencyKey) {
    return Optional.ofNullable(loader.index().idForKey(StoredText.clean(idempotencyKey)));
  }

  private LedgerEntry readRow(LedgerIndex.Row row) throws IOException {
    byte[] bytes = file.readExactly(row.offset(), row.length());
    return LedgerEntry.fromJson(Json.MAPPER.readTree(bytes, 0, row.length() - 1));
  }
}
