package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.EventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a plane's streams claim about each other, and the check of those claims against what each
 * stream holds: the heads recorded in boundary entries ({@link HeadCheckpoint#FIELD}), the heads an
 * operator pins ({@code cpctl ledger verify --expect-head}), and the LEDGER_REPAIRED entries that
 * supersede heads recorded before them. The same check serves both stores; each store says how
 * its streams are named and read ({@link View}).
 *
 * <p>A stream that is missing, holds fewer entries than the longest live claim, or whose entry at a
 * claimed length has another hash, is named once, with where the head was recorded.
 *
 * <p>Thread-safety: none; one instance is filled and checked by one thread.
 */
final class HeadClaims {
  /** How a store's streams are read for the check. Names are what the claims use (a path, a stream label). */
  interface View {
    /**
     * The name this view reads a claim's stream by: a head recorded under the other store's name
     * (a JSONL path in entries copied into PostgreSQL by {@code cpctl ledger migrate}) is the same stream.
     */
    String canonical(String recorded);

    /** The stream a claim's name means, or null when the name is no stream of the plane. */
    StreamId id(String name);

    /** How the stream is shown in a message ("HO1/ledger/worker.jsonl", "stream ho1"). */
    String shown(String name);

    boolean exists(String name);

    /** Complete entries the stream holds. */
    long entries(String name);

    /** The hash of each of the 1-based {@code lines} the stream holds (absent for lines it does not hold). */
    Map<Long, String> hashesAt(String name, Set<Long> lines);
  }

  /** One head claimed for {@code stream}: recorded in an entry of another stream, or pinned by an operator. */
  record Claim(String stream, long entries, String hash, String recordedIn, String entryId, Instant at) {
    String describe() {
      String where = entryId == null ? recordedIn : recordedIn + " at " + entryId;
      return "its head " + (entryId == null ? "given by " : "recorded in ") + where + " (" + entries + " entries, hash "
          + HeadCheckpoint.shown(hash) + ")";
    }
  }

  private record Repair(Instant at, long firstBadLine) {}

  private final Map<String, List<Claim>> claims = new LinkedHashMap<>();
  private final Map<String, List<Repair>> repairs = new HashMap<>();

  /** Adds a pinned head (an operator's {@code --expect-head}): never superseded by a repair. */
  void expect(String stream, long entries, String hash, String source) {
    claims.computeIfAbsent(stream, k -> new ArrayList<>()).add(new Claim(stream, entries, hash, source, null, null));
  }

  /**
   * Reads what entry {@code n} (1-based) of stream {@code self} claims: the heads it records of
   * other streams, or, for a LEDGER_REPAIRED entry, the loss it records of {@code self}.
   *
   * @param recordedIn how the stream holding the entry is named in messages ("HOT", "HO2/ADMIN")
   */
  void read(String self, String recordedIn, JsonNode entry, long n) {
    JsonNode meta = entry.path("metadata");
    Instant at = instant(entry.path("timestamp").asText(""));
    if (EventType.LEDGER_REPAIRED.is(entry.path("event_type").asText())) {
      repairs.computeIfAbsent(self, k -> new ArrayList<>()).add(new Repair(at,
          meta.path(LedgerKeys.FIRST_BAD_LINE).asLong()));
    }
    JsonNode heads = meta.path(HeadCheckpoint.FIELD);
    if (heads.isObject()) {
      for (Map.Entry<String, JsonNode> h : heads.properties()) {
        claims.computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(new Claim(h.getKey(),
            h.getValue().path("entries").asLong(), h.getValue().path("hash").asText(), recordedIn,
            entry.path("entry_id").asText("line " + n), at));
      }
    }
  }

  /** Every stream that contradicts a live claim, once each. */
  List<HeadCheckpoint.Finding> check(View view) {
    Map<String, List<Claim>> byStream = new LinkedHashMap<>();
    claims.forEach((name, list) -> byStream.computeIfAbsent(view.canonical(name), k -> new ArrayList<>()).addAll(list));
    Map<String, List<Repair>> repairsByStream = new HashMap<>();
    repairs.forEach((name, list) -> repairsByStream.computeIfAbsent(view.canonical(name), k -> new ArrayList<>())
        .addAll(list));
    List<HeadCheckpoint.Finding> out = new ArrayList<>();
    for (Map.Entry<String, List<Claim>> e : byStream.entrySet()) {
      String stream = e.getKey();
      List<Claim> live = e.getValue().stream().filter(c -> c.entries() > 0
          && repairsByStream.getOrDefault(stream, List.of()).stream().noneMatch(r -> supersedes(r, c))).toList();
      if (live.isEmpty()) {
        continue;
      }
      Claim longest = live.stream().max((a, b) -> Long.compare(a.entries(), b.entries())).orElseThrow();
      StreamId id = view.id(stream);
      String shown = view.shown(stream);
      if (!view.exists(stream)) {
        out.add(new HeadCheckpoint.Finding(id, stream, shown + " is missing: " + longest.describe(), 1));
        continue;
      }
      long held = view.entries(stream);
      if (held < longest.entries()) {
        out.add(new HeadCheckpoint.Finding(id, stream, shown + " is shorter than " + longest.describe() + ": it holds "
            + held + (held == 1 ? " entry" : " entries"), held + 1));
        continue;
      }
      Set<Long> lines = new TreeSet<>();
      live.forEach(c -> lines.add(c.entries()));
      Map<Long, String> hashes = view.hashesAt(stream, lines);
      live.stream().sorted((a, b) -> Long.compare(a.entries(), b.entries()))
          .filter(c -> !hashMatches(c.hash(), hashes.get(c.entries()))).findFirst()
          .ifPresent(c -> out.add(new HeadCheckpoint.Finding(id, stream, shown + " line " + c.entries()
              + " does not match " + c.describe() + ": it has hash " + HeadCheckpoint.shown(hashes.get(c.entries()))
              + " (the ledger was rewritten)", c.entries())));
    }
    return out;
  }

  /** A claimed hash matches the whole hash, or (a pinned head) at least {@link HeadCheckpoint#SHOWN_HASH_CHARS} of its start. */
  private static boolean hashMatches(String claimed, String actual) {
    if (actual == null || claimed == null) {
      return false;
    }
    return claimed.equals(actual) || (claimed.length() >= HeadCheckpoint.SHOWN_HASH_CHARS && actual.startsWith(claimed));
  }

  /** A repair recorded after the head that cut the stream at or below the recorded length. */
  private static boolean supersedes(Repair r, Claim c) {
    return r.firstBadLine() > 0 && r.firstBadLine() <= c.entries() && r.at() != null && c.at() != null
        && !r.at().isBefore(c.at());
  }

  private static Instant instant(String text) {
    try {
      return text.isEmpty() ? null : Instant.parse(text);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
