package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.ledger.Ledgers;
import cp.ledger.StreamId;
import cp.ledger.VerifyResult;
import cp.model.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code cpctl eval verify}: proves each case against the ledger entries it cites. Every cited
 * entry must still be in its stream with the hash the case cites, its stream's chain must verify
 * up to and past it (the ledger's own {@link LedgerStream#verify()}, not a second implementation),
 * and the case's {@code input} and {@code recorded} must be what {@link TurnDerivation} makes of
 * those entries, the same derivation freeze used. {@code expect} is the user's and is not checked.
 * Reads only: give it {@code Ledgers.readOnly(...)}, whose streams read each file once, verification
 * included. Not thread-safe (it caches each stream's verification for one suite).
 */
public final class SuiteVerifier {
  /** How many differing fields one verdict names before it says how many more there are. */
  static final int MAX_FIELDS_NAMED = 5;
  /** Values quoted in a problem are cut to this many characters: enough to recognise, short enough for one line. */
  static final int QUOTE_CHARS = 60;

  private final Ledgers ledgers;
  private final Map<StreamId, Optional<LedgerStream>> streams = new HashMap<>();
  private final Map<StreamId, VerifyResult> verified = new HashMap<>();
  private final Map<StreamId, Map<String, Long>> lines = new HashMap<>();

  public SuiteVerifier(Ledgers ledgers) {
    this.ledgers = ledgers;
  }

  /** A verdict per case, in suite order. */
  public List<CaseVerdict> verify(EvalSuite suite) {
    return suite.cases().stream().map(this::verify).toList();
  }

  /** The verdict on one case. */
  public CaseVerdict verify(EvalCase c) {
    if (c.cites().isEmpty()) {
      return new CaseVerdict(c.id(), CaseVerdict.Status.EDITED,
          List.of("cites: the case cites no ledger entry, so nothing proves its input and record"));
    }
    List<String> missing = new ArrayList<>();
    List<String> edited = new ArrayList<>();
    List<String> key = new ArrayList<>();
    List<LedgerEntry> entries = new ArrayList<>();
    for (int i = 0; i < c.cites().size(); i++) {
      LedgerCite cite = c.cites().get(i);
      String at = "cites[" + i + "] (" + cite.ledger() + " " + cite.type() + " " + cite.entryId() + ")";
      StreamId id;
      try {
        id = StreamId.parse(cite.stream());
      } catch (IllegalArgumentException e) {
        edited.add(at + ": stream '" + cite.stream() + "' is not a ledger stream: " + e.getMessage());
        continue;
      }
      Optional<LedgerStream> stream = stream(id);
      VerifyResult before = verified(id);
      if (before.tornTail()) {
        // The stream ends in a write cut short; a reader leaves it where it is (a writer would move it aside).
        edited.add(at + ": stream " + id.label() + " " + before.reason().substring(0, before.reason().indexOf(" ("))
            + " at line " + before.firstBadLine() + " (a write cut short); eval verify changes nothing, so the line"
            + " stays where it is: run 'cpctl ledger verify', then 'cpctl ledger repair' or any command that writes");
        continue;
      }
      Optional<LedgerEntry> entry = stream.flatMap(s -> s.byId(cite.entryId()));
      if (entry.isEmpty()) {
        missing.add(at + ": not in " + (stream.isEmpty() ? "the ledgers (stream " + id.label() + " is gone)"
            : "stream " + id.label()));
        continue;
      }
      LedgerEntry e = entry.get();
      entries.add(e);
      if (cite.hash() == null || !cite.hash().equals(e.hash())) {
        edited.add(at + ": the ledger entry's hash is " + e.hash() + ", the case cites " + cite.hash());
      }
      if (!id.tier().name().equals(cite.ledger())) {
        edited.add(at + ": the entry is in ledger " + id.tier().name() + ", the case cites ledger " + cite.ledger());
      }
      if (cite.type() != null && !cite.type().equals(e.eventType())) {
        edited.add(at + ": the ledger entry is a " + e.eventType() + ", the case cites a " + cite.type());
      }
      chainProblem(id, stream.get(), e).ifPresent(p -> {
        if (verified.get(id).keyProblem()) {
          key.add(at + ": " + p);
        } else {
          edited.add(at + ": " + p);
        }
      });
    }
    if (!missing.isEmpty()) {
      missing.addAll(edited);
      return new CaseVerdict(c.id(), CaseVerdict.Status.MISSING, missing);
    }
    if (edited.isEmpty() && !key.isEmpty()) {
      return new CaseVerdict(c.id(), CaseVerdict.Status.KEY, key);
    }
    edited.addAll(fieldsEdited(c, entries));
    return new CaseVerdict(c.id(), edited.isEmpty() ? CaseVerdict.Status.OK : CaseVerdict.Status.EDITED, edited);
  }

  /**
   * What keeps the ledgers from proving the entries {@code c} cites: each one whose stream fails its own
   * verification ({@code cpctl ledger verify}'s chain check) at or before it, naming the stream, the entry
   * and the line. Empty when the chain proves every cite. {@code eval freeze} asks this before it writes.
   */
  public List<String> chainProblems(EvalCase c) {
    List<String> out = new ArrayList<>();
    for (LedgerCite cite : c.cites()) {
      StreamId id;
      try {
        id = StreamId.parse(cite.stream());
      } catch (IllegalArgumentException e) {
        continue;
      }
      Optional<LedgerStream> stream = stream(id);
      Optional<LedgerEntry> entry = stream.flatMap(s -> s.byId(cite.entryId()));
      entry.flatMap(e -> chainProblem(id, stream.get(), e)).ifPresent(p -> out.add(c.id() + ": " + cite.ledger() + " "
          + cite.type() + " " + cite.entryId() + ": " + p));
    }
    return out;
  }

  /** The fields of {@code input} and {@code recorded} that differ from what the cited entries say. */
  private static List<String> fieldsEdited(EvalCase c, List<LedgerEntry> entries) {
    int turn = c.input().turn();
    String session = c.input().sessionId();
    TurnDerivation.Derived d = TurnDerivation.derive(session, turn, entries);
    JsonNode mine = Json.object().<com.fasterxml.jackson.databind.node.ObjectNode>set("input", Json.tree(c.input()))
        .set("recorded", Json.tree(c.recorded()));
    JsonNode theirs = Json.object().<com.fasterxml.jackson.databind.node.ObjectNode>set("input", Json.tree(d.input()))
        .set("recorded", Json.tree(d.recorded()));
    List<String> paths = new ArrayList<>();
    TreeDiff.paths("", mine, theirs, paths);
    List<String> out = new ArrayList<>();
    for (String p : paths.subList(0, Math.min(paths.size(), MAX_FIELDS_NAMED))) {
      String field = p.startsWith(".") ? p.substring(1) : p;
      out.add(field + ": differs from the ledger (case " + quote(TreeDiff.at(mine, field)) + ", ledger "
          + quote(TreeDiff.at(theirs, field)) + ")");
    }
    if (paths.size() > MAX_FIELDS_NAMED) {
      out.add("and " + (paths.size() - MAX_FIELDS_NAMED) + " more field(s)");
    }
    return out;
  }

  /** Why the chain does not prove {@code e}: its stream fails verification at or before its line. */
  private Optional<String> chainProblem(StreamId id, LedgerStream stream, LedgerEntry e) {
    VerifyResult r = verified(id);
    if (r.ok()) {
      return Optional.empty();
    }
    // A stream opened read-only knows its lines from the one read; another one is read once more here.
    Long line = stream.lineOf(e.entryId()).orElseGet(() -> lines.computeIfAbsent(id, k -> lineNumbers(stream))
        .get(e.entryId()));
    if (line != null && line < r.firstBadLine()) {
      return Optional.empty();
    }
    return Optional.of("stream " + id.label() + " fails verification at line " + r.firstBadLine()
        + (line == null ? "" : " (this entry is line " + line + ")") + ": " + r.reason());
  }

  private static Map<String, Long> lineNumbers(LedgerStream stream) {
    Map<String, Long> out = new HashMap<>();
    long n = 0;
    for (LedgerEntry e : stream.readAll()) {
      out.put(e.entryId(), ++n);
    }
    return out;
  }

  /**
   * The stream's own verification, once per stream: a stream opened read-only answers it from the one
   * read that opened it ({@code Ledgers#readOnly}); a stream that does not exist verifies as empty.
   */
  private VerifyResult verified(StreamId id) {
    return verified.computeIfAbsent(id, k -> stream(k).map(LedgerStream::verify).orElse(VerifyResult.ok(0)));
  }

  private Optional<LedgerStream> stream(StreamId id) {
    return streams.computeIfAbsent(id, k -> ledgers.existing(k.tier(), k.agentClass()));
  }

  private static String quote(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return "none";
    }
    String s = n.isTextual() ? "\"" + n.asText() + "\"" : n.toString();
    s = s.replace("\n", "\\n");
    return s.length() <= QUOTE_CHARS ? s : s.substring(0, QUOTE_CHARS) + "…";
  }
}
