package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.EventType;
import cp.model.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Copies of each ledger's head kept in the plane's other ledgers, so that deleting a ledger file
 * together with its {@code .head} sidecar (or emptying it, or cutting its tail and rewriting the
 * sidecar, or re-hashing it from an edited line) is noticed.
 *
 * <p>Writing: an entry of a {@link #BOUNDARY} type appended to one of a plane's ledgers carries
 * {@code metadata.ledger_heads}, the head ({@code entries}, {@code hash}) of every other ledger of
 * the plane, keyed by its path under the plane root. HOT's SESSION_START and SESSION_END record
 * HO1, HO2 and HO3; HO2's WO_CHAIN_COMPLETE (the end of each turn) records HOT, HO1 and the other
 * HO2 ledgers. The heads come from memory for ledgers this process has open and from their
 * {@code .head} sidecars otherwise; nothing is forced to disk for it, so the hot path gains no
 * fsync and no entry: a few hundred bytes on two or three entries per turn.
 *
 * <p>Checking ({@link #crossCheck}): every recorded head is compared with the ledger it names: a
 * ledger that is missing, holds fewer entries than recorded, or whose entry at the recorded length
 * has another hash is named, with where the head was recorded. A head recorded before a
 * LEDGER_REPAIRED entry that cut the ledger at or below it is superseded by that repair.
 */
public final class HeadCheckpoint {
  /** The metadata field that holds the other ledgers' heads. */
  public static final String FIELD = "ledger_heads";
  /** Events that record the other ledgers' heads: session boundaries in HOT, turn ends in HO2. */
  static final Set<String> BOUNDARY = Set.of(EventType.SESSION_START.wire(), EventType.SESSION_END.wire(),
      EventType.WO_CHAIN_COMPLETE.wire());
  /** Hex digits of a hash shown in messages: enough to compare by eye. */
  static final int SHOWN_HASH_CHARS = 16;

  private HeadCheckpoint() {}

  /** {@code entry} with the other ledgers' heads when it is a boundary event of a plane's ledger. */
  static LedgerEntry augment(Path ledger, LedgerEntry entry) {
    if (!BOUNDARY.contains(entry.eventType())) {
      return entry;
    }
    Optional<PlaneLayout.LedgerFile> self = PlaneLayout.fileOf(ledger);
    if (self.isEmpty()) {
      return entry;
    }
    PlaneLayout layout = new PlaneLayout(PlaneLayout.rootOf(self.get()));
    ObjectNode heads = Json.object();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      if (f.path().equals(self.get().path())) {
        continue;
      }
      LedgerHead h = OpenLedgers.publishedHead(f.path());
      if (h == null) {
        h = LedgerHead.read(f.path());
      }
      if (h != null && h.entries() > 0) {
        heads.set(name(layout, f.path()), Json.object().put("entries", h.entries()).put("hash", h.lastHash()));
      }
    }
    return withHeads(entry, heads);
  }

  /** {@code entry} carrying {@code heads} in its metadata ({@link #FIELD}); unchanged when there are none. */
  static LedgerEntry withHeads(LedgerEntry entry, ObjectNode heads) {
    if (heads.isEmpty()) {
      return entry;
    }
    ObjectNode meta = entry.metadata();
    meta.set(FIELD, heads);
    return entry.toBuilder().metadata(meta).build();
  }

  private static String name(PlaneLayout layout, Path p) {
    return layout.relative(p).replace('\\', '/');
  }

  /**
   * A stream that contradicts a head recorded for it elsewhere (or pinned by an operator).
   *
   * @param stream the stream (it may be missing); null if the recorded name is not a stream of the plane
   * @param name the name the head was recorded under (a path under the plane root, or a stream label)
   * @param message what is wrong and where the head was recorded
   * @param firstBadLine the first line the recorded head vouches for that the stream does not hold as recorded
   */
  public record Finding(StreamId stream, String name, String message, long firstBadLine) {}

  /** Reads every ledger file of the plane and names each one that contradicts a head recorded elsewhere. */
  public static List<Finding> crossCheck(PlaneLayout layout) {
    return crossCheck(layout, List.of());
  }

  /**
   * {@link #crossCheck(PlaneLayout)} plus the heads an operator pins ({@code --expect-head}): each
   * named stream must hold at least that many entries, the last of them with that hash.
   */
  public static List<Finding> crossCheck(PlaneLayout layout, List<ExpectedHead> expected) {
    HeadClaims claims = new HeadClaims();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      String self = name(layout, f.path());
      forEachLine(f.path(), (line, text) -> {
        if (!text.contains("\"" + FIELD + "\"") && !text.contains("\"LEDGER_REPAIRED\"")) {
          return; // most lines: not parsed at all
        }
        claims.read(self, f.tierName(), parse(text), line);
      });
    }
    for (ExpectedHead h : expected) {
      claims.expect(name(layout, layout.ledgerPath(h.stream().tier(), h.stream().agentClass())), h.entries(), h.hash(),
          h.source());
    }
    return claims.check(new FileView(layout));
  }

  /** The JSONL files of a plane, named by their path under the root. */
  private record FileView(PlaneLayout layout) implements HeadClaims.View {
    @Override
    public String canonical(String recorded) {
      if (recorded.endsWith(".jsonl")) {
        return recorded;
      }
      try {
        StreamId id = StreamId.parse(recorded);
        return name(layout, layout.ledgerPath(id.tier(), id.agentClass()));
      } catch (IllegalArgumentException e) {
        return recorded;
      }
    }

    @Override
    public StreamId id(String name) {
      return PlaneLayout.fileOf(layout.root().resolve(name)).map(f -> new StreamId(f.tier(), f.agentClass()))
          .orElse(null);
    }

    @Override
    public String shown(String name) {
      return name;
    }

    @Override
    public boolean exists(String name) {
      return java.nio.file.Files.isRegularFile(layout.root().resolve(name));
    }

    @Override
    public long entries(String name) {
      long[] count = {0};
      forEachLine(layout.root().resolve(name), (line, text) -> count[0] = line);
      return count[0];
    }

    @Override
    public Map<Long, String> hashesAt(String name, Set<Long> lines) {
      Map<Long, String> out = new HashMap<>();
      forEachLine(layout.root().resolve(name), (line, text) -> {
        if (lines.contains(line)) {
          out.put(line, parse(text).path("hash").asText(""));
        }
      });
      return out;
    }
  }

  /**
   * The LEDGER_REPAIRED entry {@code cpctl ledger repair} appends to a ledger that contradicts a
   * head recorded elsewhere but is intact by itself (lines lost or replaced with their head): it
   * records the loss, and heads recorded before it from {@code firstBadLine} on no longer count.
   */
  public static LedgerEntry lossRecord(Finding f) {
    return LedgerEntry.builder(EventType.LEDGER_REPAIRED.wire())
        .submissionId(Path.of(f.name()).getFileName().toString())
        .decision("REPAIRED").reason("contradicts a head recorded elsewhere from line " + f.firstBadLine() + ": "
            + f.message())
        .metadata(Json.object().put(LedgerKeys.FIRST_BAD_LINE, f.firstBadLine()).put(LedgerKeys.PROBLEM, f.message())
            .put("quarantined_bytes", 0))
        .build();
  }

  private interface LineVisitor {
    void visit(long line, String text);
  }

  /** A line parsed; one that is not a JSON object is an empty object (the chain check names it). */
  private static JsonNode parse(String text) {
    try {
      JsonNode n = Json.MAPPER.readTree(text);
      return n != null && n.isObject() ? n : Json.object();
    } catch (IOException | RuntimeException e) {
      return Json.object();
    }
  }

  /** Every complete line (ending in a newline) of {@code file}, with its 1-based number. */
  private static void forEachLine(Path file, LineVisitor visitor) {
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      long size = Files.size(file);
      long read = 0;
      long line = 0;
      String text;
      while ((text = r.readLine()) != null) {
        read += text.getBytes(StandardCharsets.UTF_8).length + 1;
        if (read > size) {
          break; // the last line has no newline: not a complete entry
        }
        line++;
        visitor.visit(line, text);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  static String shown(String hash) {
    return hash == null ? "(none)" : hash.length() <= SHOWN_HASH_CHARS ? hash : hash.substring(0, SHOWN_HASH_CHARS) + "…";
  }
}
