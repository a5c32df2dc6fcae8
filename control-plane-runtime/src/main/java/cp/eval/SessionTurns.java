package cp.eval;

import cp.activities.ExchangeRecord;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.LedgerStream;
import cp.ledger.Ledgers;
import cp.ledger.StreamId;
import cp.ledger.Tier;
import cp.model.EventType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A session's turns as the ledgers hold them, each as the entries a frozen case cites: HOT's
 * SESSION_START, the turn's EXCHANGEs and DEGRADATION; the agent class's HO2 classify WO_PLANNED
 * (the user's text as the turn saw it), quality gates and WO_CHAIN_COMPLETE; HO1's TOOL_CALLs.
 * Reads through the ledgers' read API, so either store (JSONL or PostgreSQL) works. Not thread-safe
 * beyond what the ledgers are.
 */
public final class SessionTurns {
  private static final String CLASSIFY = "classify";

  private final Ledgers ledgers;

  public SessionTurns(Ledgers ledgers) {
    this.ledgers = ledgers;
  }

  /**
   * The turns of {@code sessionId}, by number, each with its entries in citing order.
   *
   * @throws IllegalArgumentException when the session is not in the ledgers
   */
  public SortedMap<Integer, List<CitedEntry>> read(String sessionId) {
    StreamId hotId = new StreamId(Tier.HOT, null);
    Optional<LedgerStream> hot = ledgers.existing(Tier.HOT, null);
    List<LedgerEntry> hotEntries = hot.map(s -> s.bySession(sessionId)).orElse(List.of());
    LedgerEntry start = hotEntries.stream().filter(e -> EventType.SESSION_START.is(e.eventType())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("session " + sessionId + " is not in the ledgers in "
            + ledgers.store().describe() + " (no SESSION_START; see 'cpctl sessions')"));
    String agentClass = start.metaText("agent_class");
    Map<Integer, Parts> turns = new TreeMap<>();
    for (LedgerEntry e : hotEntries) {
      if (ExchangeRecord.EVENT_TYPE.equals(e.eventType())) {
        part(turns, e).exchanges.add(new CitedEntry(hotId, e));
      } else if (EventType.DEGRADATION.is(e.eventType())) {
        part(turns, e).completion.add(new CitedEntry(hotId, e));
      }
    }
    if (agentClass != null) {
      StreamId ho2Id = new StreamId(Tier.HO2, agentClass);
      ledgers.existing(Tier.HO2, agentClass).ifPresent(ho2 -> {
        for (LedgerEntry e : ho2.bySession(sessionId)) {
          String type = e.eventType();
          if (EventType.WO_PLANNED.is(type)) {
            Parts p = part(turns, e);
            if (p.input == null || (!CLASSIFY.equals(p.input.entry().metaText("wo_type"))
                && CLASSIFY.equals(e.metaText("wo_type")))) {
              p.input = new CitedEntry(ho2Id, e);
            }
          } else if (EventType.WO_QUALITY_GATE.is(type)) {
            part(turns, e).gates.add(new CitedEntry(ho2Id, e));
          } else if (EventType.WO_CHAIN_COMPLETE.is(type)) {
            part(turns, e).completion.add(new CitedEntry(ho2Id, e));
          }
        }
      });
    }
    StreamId ho1Id = new StreamId(Tier.HO1, null);
    ledgers.existing(Tier.HO1, null).ifPresent(ho1 -> {
      for (LedgerEntry e : ho1.query(LedgerQuery.session(sessionId).withEventType(EventType.TOOL_CALL.wire()))) {
        part(turns, e).tools.add(new CitedEntry(ho1Id, e));
      }
    });
    SortedMap<Integer, List<CitedEntry>> out = new TreeMap<>();
    CitedEntry startCite = new CitedEntry(hotId, start);
    turns.forEach((turn, p) -> {
      if (turn > 0) {
        out.put(turn, p.inOrder(startCite));
      }
    });
    return out;
  }

  /**
   * The newest {@code limit} sessions of {@code agentClass} started at or after {@code since},
   * oldest first.
   */
  public List<String> sessionsOf(String agentClass, Instant since, int limit) {
    Optional<LedgerStream> hot = ledgers.existing(Tier.HOT, null);
    if (hot.isEmpty()) {
      return List.of();
    }
    List<LedgerEntry> starts = new ArrayList<>();
    for (LedgerEntry e : hot.get().byEventType(EventType.SESSION_START.wire())) {
      if (agentClass.equalsIgnoreCase(String.valueOf(e.metaText("agent_class"))) && !startedBefore(e, since)) {
        starts.add(e);
      }
    }
    starts.sort(Comparator.comparing(LedgerEntry::timestamp, Comparator.nullsFirst(Comparator.naturalOrder())));
    List<LedgerEntry> newest = starts.subList(Math.max(0, starts.size() - limit), starts.size());
    return newest.stream().map(e -> e.metaText("session_id") != null ? e.metaText("session_id") : e.sessionId())
        .toList();
  }

  private static boolean startedBefore(LedgerEntry e, Instant since) {
    try {
      return e.timestamp() == null || Instant.parse(e.timestamp()).isBefore(since);
    } catch (DateTimeParseException ex) {
      return true;
    }
  }

  private static Parts part(Map<Integer, Parts> turns, LedgerEntry e) {
    return turns.computeIfAbsent(TurnDerivation.turnOf(e), t -> new Parts());
  }

  /** One turn's entries by role, put in citing order at the end. */
  private static final class Parts {
    CitedEntry input;
    final List<CitedEntry> exchanges = new ArrayList<>();
    final List<CitedEntry> tools = new ArrayList<>();
    final List<CitedEntry> gates = new ArrayList<>();
    final List<CitedEntry> completion = new ArrayList<>();

    List<CitedEntry> inOrder(CitedEntry start) {
      List<CitedEntry> all = new ArrayList<>();
      all.add(start);
      if (input != null) {
        all.add(input);
      }
      all.addAll(exchanges);
      all.addAll(tools);
      all.addAll(gates);
      all.addAll(completion);
      return all;
    }
  }
}
