package cp.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.faults.FaultHook;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The append path of one JSONL ledger: refuses a broken chain, answers a known idempotency key
 * with the first entry's id, adopts an unkeyed ledger under a key ({@link KeyedChain}), fills in
 * the id, time and chain, writes the line at the end of the last complete line, and moves the
 * index, the group commit and the {@code .head} sidecar on. A write the file system refuses is
 * cut back off and reported once ({@link AppendProblems}).
 *
 * <p>Thread-safety: none of its own; the owning {@link Ledger} calls {@link #append} under its
 * lock and the file lock, after catching up with other processes.
 */
final class JsonlAppender {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  private final Path path;
  private final LedgerOptions options;
  private final Clock clock;
  private final LedgerFile file;
  private final LedgerLoader loader;
  private final GroupCommit commit;
  private final AppendProblems problems;

  JsonlAppender(Path path, LedgerOptions options, Clock clock, LedgerFile file, LedgerLoader loader, GroupCommit commit,
      AppendProblems problems) {
    this.path = path;
    this.options = options;
    this.clock = clock;
    this.file = file;
    this.loader = loader;
    this.commit = commit;
    this.problems = problems;
  }

  /** Refuses an append to a broken chain, naming the problem (logged once). */
  void refuseIfBroken() {
    VerifyResult broken = loader.broken();
    if (broken != null) {
      LedgerProblem p = LedgerProblem.corrupt(path, broken);
      problems.report(p);
      LedgerCorruptException refused = new LedgerCorruptException(path.toString(), broken);
      refused.initCause(new LedgerUnwritableException(p, null));
      throw refused;
    }
  }

  /** Appends {@code entry} (the caller refused a broken chain first); the first entry's id for a known key. */
  LedgerStream.Appended append(LedgerEntry entry) throws IOException {
    refuseIfBroken();
    LedgerIndex index = loader.index();
    String key = entry.idempotencyKey();
    String existing = index.idForKey(key);
    if (existing != null) {
      return new LedgerStream.Appended(existing, null);
    }
    if (loader.keyed().needsMarker(options.key(), loader.lines(), entry)) {
      append(KeyedChain.marker(path, options.key(), loader.lines(), loader.lastHash()));
      LOG.warn("ledger {}: keyed from line {} on ({} key id {}); the {} entries before it were written without a key",
          path, loader.lines(), ChainKey.VARIABLE, options.key().id(), loader.lines() - 1);
    }
    String id = entry.entryId();
    if (id != null && index.containsId(id)) {
      throw new LedgerException("ledger " + path + " already holds entry_id " + id + "; entry ids are unique");
    }
    if (id == null) {
      id = EntryIds.newId(key);
      while (index.containsId(id)) {
        id = EntryIds.newId(null);
      }
    }
    String timestamp = entry.timestamp() != null ? entry.timestamp()
        : clock.instant().truncatedTo(ChronoUnit.MICROS).toString();
    long at = loader.knownEnd();
    ObjectNode node = entry.toAppendJson(id, timestamp, loader.lastHash(), options.key());
    String hash = ChainCodec.hashOf(node, options.key());
    node.put("hash", hash);
    byte[] line = ChainCodec.line(node);
    writeLine(entry.eventType(), line, at);
    options.hooks().faults().at(LedgerHooks.point(LedgerHooks.LEDGER_WRITTEN, entry.eventType()));
    loader.appended(new LedgerIndex.Row(at, line.length, id, entry.eventType(), entry.sessionId(),
        entry.workOrderId()), key, hash);
    commit.written(loader.knownEnd());
    loader.keyed().appended(options.key() != null, loader.lines());
    loader.writeHead();
    commit.appended();
    return new LedgerStream.Appended(id, hash);
  }

  /**
   * Appends what torn tails proved ({@link TornTail}) where the tails were, and forces it to disk
   * (a rare path: a process died mid-write). Nothing is appended to a broken chain.
   */
  void appendRecovered(java.util.List<LedgerEntry> torn) throws IOException {
    for (LedgerEntry e : torn) {
      if (loader.broken() == null) {
        LedgerStream.Appended a = append(e);
        LOG.warn("ledger {}: recorded the torn {} entry as {}", path, e.eventType(), a.entryId());
      }
    }
    if (!torn.isEmpty()) {
      file.force(false);
    }
  }

  /** Writes one line at {@code at}; a refused write is cut back off and reported as the problem it is. */
  private void writeLine(String eventType, byte[] line, long at) throws IOException {
    FaultHook faults = options.hooks().faults();
    String torn = LedgerHooks.point(LedgerHooks.LEDGER_TORN, eventType);
    try {
      if (faults.armed(torn)) {
        file.write(Arrays.copyOf(line, line.length / 2), at);
        file.force(false);
        faults.pause(torn);
      }
      options.hooks().writes().beforeWrite(path);
      file.write(line, at);
    } catch (IOException e) {
      try {
        file.truncate(at);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      Optional<LedgerProblem> p = LedgerProblem.ofIo(path, e);
      if (p.isPresent()) {
        problems.report(p.get());
        throw new LedgerUnwritableException(p.get(), e);
      }
      throw e;
    }
  }
}
