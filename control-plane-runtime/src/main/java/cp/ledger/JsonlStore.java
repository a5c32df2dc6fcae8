package cp.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The embedded default store: one hash-chained JSONL file per stream under the plane root
 * ({@link PlaneLayout}), each a {@link Ledger}. Works while every process of a deployment shares
 * the directory (one host).
 *
 * <p>Opened {@link #readOnly read-only} (the commands that only read), each stream is a
 * {@link ReadOnlyLedger}: nothing under the root is created, recovered, rewritten or locked for
 * writing, and a stream ending in an incomplete line is read up to its last complete line with one
 * warning naming the file, what was skipped and how it gets repaired.
 */
public final class JsonlStore implements LedgerStore {
  private final PlaneLayout layout;
  private final LedgerSettings settings;
  private final Map<Path, LedgerStream> open = new ConcurrentHashMap<>();
  /** Where a read-only store says what it skipped; null for a store that writes. */
  private final Consumer<String> warnings;

  public JsonlStore(PlaneLayout layout, LedgerSettings settings) {
    this(layout, settings, null);
  }

  private JsonlStore(PlaneLayout layout, LedgerSettings settings, Consumer<String> warnings) {
    this.layout = layout;
    this.settings = settings;
    this.warnings = warnings;
  }

  /**
   * The store of a command that only reads: streams open read-only ({@link ReadOnlyLedger}), or share
   * the instance a writer of this JVM holds; {@code warnings} gets one line per stream whose incomplete
   * final line was skipped.
   */
  public static JsonlStore readOnly(PlaneLayout layout, LedgerSettings settings, Consumer<String> warnings) {
    return new JsonlStore(layout, settings, java.util.Objects.requireNonNull(warnings, "warnings"));
  }

  /** Whether streams open read-only. */
  public boolean isReadOnly() {
    return warnings != null;
  }

  @Override
  public LedgerStream open(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    return open.computeIfAbsent(p, k -> warnings == null ? Ledger.open(k, settings.options(id.tier())) : reader(id, k));
  }

  /** A read-only stream: a writer's instance open in this JVM, else the file read once. */
  private LedgerStream reader(StreamId id, Path p) {
    Ledger shared = OpenLedgers.acquireIfOpen(p.toAbsolutePath().normalize());
    if (shared != null) {
      return shared;
    }
    ReadOnlyLedger l = ReadOnlyLedger.open(p, settings.options(id.tier()));
    if (l.skippedBytes() > 0) {
      warnings.accept(skipped(id, p, l));
    }
    return l;
  }

  /** The warning for a stream read up to its last complete line. */
  private String skipped(StreamId id, Path p, ReadOnlyLedger l) {
    String repair = "'cpctl ledger repair --tier " + id.tier().wireName()
        + (id.agentClass() == null ? "" : " --agent-class " + id.agentClass()) + "'";
    String what = layout.relative(p) + " ends in an incomplete line of " + l.skippedBytes() + " bytes after line "
        + l.lines();
    String read = "; read up to line " + l.lines() + " and left the file as it is (this command only reads): ";
    return l.verify().tornTail()
        ? what + " (a write cut short, e.g. by a crash)" + read + "the next worker or chat to write this ledger, or "
            + repair + ", saves it to a .torn-* file and records what it holds"
        : what + " that its .head counts (damage, not a torn write: " + l.verify().reason() + ")" + read
            + "'cpctl ledger verify' names it and " + repair + " quarantines it";
  }

  @Override
  public boolean exists(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    return open.containsKey(p) || Files.isRegularFile(p);
  }

  /** Read-only: the file is not opened for writing, so a torn tail or a bad head is reported as found. */
  @Override
  public VerifyResult verify(StreamId id) {
    Path p = layout.ledgerPath(id.tier(), id.agentClass());
    if (open.get(p) instanceof ReadOnlyLedger read) {
      return read.verify(); // walked when it was read; the file is not read again
    }
    return Ledger.verifyFile(p, settings.options(id.tier()), true);
  }

  @Override
  public List<StreamId> streams() {
    List<StreamId> out = new ArrayList<>();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      out.add(new StreamId(f.tier(), f.agentClass()));
    }
    return out;
  }

  @Override
  public List<HeadCheckpoint.Finding> crossCheck(List<ExpectedHead> expected) {
    return HeadCheckpoint.crossCheck(layout, expected);
  }

  @Override
  public String describe() {
    return "JSONL files under " + layout.root();
  }

  @Override
  public String location(StreamId id) {
    return layout.relative(layout.ledgerPath(id.tier(), id.agentClass()));
  }

  @Override
  public void close() {
    for (LedgerStream l : open.values()) {
      l.close();
    }
    open.clear();
  }
}
