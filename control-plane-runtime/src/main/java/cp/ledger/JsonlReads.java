package cp.ledger;

import cp.model.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  /**
   * Line bytes of parsed entries kept per ledger. Entries never change once written, so a line read
   * again is taken from here instead of the disk and the JSON parser: attention reads the same
   * recent entries every turn (a session's last ten turns of EXCHANGEs, ~12 KB each with their
   * prompts, and the latest HO1/HO2 events), which this holds several times over.
   */
  static final long CACHE_BYTES = 1L << 20;

  private final LedgerFile file;
  private final LedgerLoader loader;
  /**
   * Parsed entries by their index row, least recently read first. A row names its offset, length
   * and entry id, so a line rewritten after a repair is another key. Guarded by the owning ledger's
   * lock, as every method here is.
   */
  private final LinkedHashMap<LedgerIndex.Row, LedgerEntry> parsed = new LinkedHashMap<>(64, 0.75f, true);
  private long parsedBytes;

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
    LedgerEntry known = parsed.get(row);
    if (known != null) {
      return known;
    }
    byte[] bytes = file.readExactly(row.offset(), row.length());
    LedgerEntry entry = LedgerEntry.fromJson(Json.MAPPER.readTree(bytes, 0, row.length() - 1));
    if (row.length() <= CACHE_BYTES) {
      parsed.put(row, entry);
      parsedBytes += row.length();
      Iterator<Map.Entry<LedgerIndex.Row, LedgerEntry>> oldest = parsed.entrySet().iterator();
      while (parsedBytes > CACHE_BYTES && oldest.hasNext()) {
        parsedBytes -= oldest.next().getKey().length();
        oldest.remove();
      }
    }
    return entry;
  }
}
