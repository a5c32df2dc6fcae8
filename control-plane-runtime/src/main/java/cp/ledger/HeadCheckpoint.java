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
   * A ledger that contradicts a head recorded for it elsewhere.
   *
   * @param file the ledger (its file may be missing); null if the recorded name is not a plane ledger
   * @param relative its path under the plane root
   * @param message what is wrong and where the head was recorded
   * @param firstBadLine the first line the recorded head vouches for that the file does not hold as recorded
   */
  public record Finding(PlaneLayout.LedgerFile file, String relative, String message, long firstBadLine) {}

  private record Claim(String stream, long entries, String hash, String recordedIn, String entryId, Instant at) {
    String describe() {
      return "its head recorded in " + recordedIn + " at " + entryId + " (" + entries + " entries, hash "
          + shown(hash) + ")";
    }
  }

  private record Repair(Instant at, long firstBadLine) {}

  /** Reads every ledger of the plane and names each one that contradicts a head recorded elsewhere. */
  public static List<Finding> crossCheck(PlaneLayout layout) {
    Map<String, List<Claim>> claims = new LinkedHashMap<>();
    Map<String, List<Repair>> repairs = new HashMap<>();
    Map<String, PlaneLayout.LedgerFile> present = new HashMap<>();
    for (PlaneLayout.LedgerFile f : layout.existingLedgers()) {
      String self = name(layout, f.path());
      present.put(self, f);
      forEachLine(f.path(), (line, text) -> {
        if (!text.contains("\"" + FIELD + "\"") && !text.contains("\"LEDGER_REPAIRED\"")) {
          return; // most lines: not parsed at all
        }
        JsonNode n = parse(text);
        JsonNode meta = n.path("metadata");
        Instant at = instant(n.path("timestamp").asText(""));
        if (EventType.LEDGER_REPAIRED.is(n.path("event_type").asText())) {
          repairs.computeIfAbsent(self, k -> new ArrayList<>()).add(new Repair(at, meta.path(LedgerKeys.FIRST_BAD_LINE).asLong()));
        }
        JsonNode heads = meta.path(FIELD);
        if (heads.isObject()) {
          for (Map.Entry<String, JsonNode> h : heads.properties()) {
            claims.computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(new Claim(h.getKey(),
                h.getValue().path("entries").asLong(), h.getValue().path("hash").asText(), f.tierName(),
                n.path("entry_id").asText("line " + line), at));
          }
        }
      });
    }
    List<Finding> out = new ArrayList<>();
    for (Map.Entry<String, List<Claim>> e : claims.entrySet()) {
      String stream = e.getKey();
      List<Claim> live = e.getValue().stream().filter(c -> c.entries() > 0
          && repairs.getOrDefault(stream, List.of()).stream().noneMatch(r -> supersedes(r, c))).toList();
      if (live.isEmpty()) {
        continue;
      }
      Claim longest = live.stream().max((a, b) -> Long.compare(a.entries(), b.entries())).orElseThrow();
      PlaneLayout.LedgerFile file = present.get(stream);
      if (file == null) {
        Path p = layout.root().resolve(stream);
        out.add(new Finding(PlaneLayout.fileOf(p).orElse(null), stream, stream + " is missing: "
            + longest.describe(), 1));
        continue;
      }
      Map<Long, String> hashes = hashesAt(file.path(), live);
      long lines = Long.parseLong(hashes.get(0L));
      if (lines < longest.entries()) {
        out.add(new Finding(file, stream, stream + " is shorter than " + longest.describe() + ": it holds "
            + lines + (lines == 1 ? " entry" : " entries"), lines + 1));
        continue;
      }
      live.stream().sorted((a, b) -> Long.compare(a.entries(), b.entries()))
          .filter(c -> !c.hash().equals(hashes.get(c.entries()))).findFirst()
          .ifPresent(c -> out.add(new Finding(file, stream, stream + " line " + c.entries() + " does not match "
              + c.describe() + ": it has hash " + shown(hashes.get(c.entries())) + " (the ledger was rewritten)",
              c.entries())));
    }
    return out;
  }

  /**
   * The LEDGER_REPAIRED entry {@code cpctl ledger repair} appends to a ledger that contradicts a
   * head recorded elsewhere but is intact by itself (lines lost or replaced with their head): it
   * records the loss, and heads recorded before it from {@code firstBadLine} on no longer count.
   */
  public static LedgerEntry lossRecord(Finding f) {
    return LedgerEntry.builder(EventType.LEDGER_REPAIRED.wire())
        .submissionId(Path.of(f.relative()).getFileName().toString())
        .decision("REPAIRED").reason("contradicts a head recorded elsewhere from line " + f.firstBadLine() + ": "
            + f.message())
        .metadata(Json.object().put(LedgerKeys.FIRST_BAD_LINE, f.firstBadLine()).put(LedgerKeys.PROBLEM, f.message())
            .put("quarantined_bytes", 0))
        .build();
  }

  /** A repair recorded after the head that cut the ledger at or below the recorded length. */
  private static boolean supersedes(Repair r, Claim c) {
    return r.firstBadLine() > 0 && r.firstBadLine() <= c.entries() && r.at() != null && c.at() != null
        && !r.at().isBefore(c.at());
  }

  /** The hash of each claimed line, and under key 0 the number of complete lines. */
  private static Map<Long, String> hashesAt(Path file, List<Claim> claims) {
    Set<Long> wanted = new TreeSet<>();
    claims.forEach(c -> wanted.add(c.entries()));
    Map<Long, String> out = new HashMap<>();
    long[] count = {0};
    forEachLine(file, (line, text) -> {
      count[0] = line;
      if (wanted.contains(line)) {
        out.put(line, parse(text).path("hash").asText(""));
      }
    });
    out.put(0L, Long.toString(count[0]));
    return out;
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

  private static Instant instant(String text) {
    try {
      return text.isEmpty() ? null : Instant.parse(text);
    } catch (RuntimeException e) {
      return null;
    }
  }

  static String shown(String hash) {
    return hash == null ? "(none)" : hash.length() <= SHOWN_HASH_CHARS ? hash : hash.substring(0, SHOWN_HASH_CHARS) + "…";
  }
}
