package cp.eval;

import cp.ledger.LedgerEntry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.stream.Collectors;

/**
 * {@code cpctl eval freeze}: turns recorded in the ledgers become the cases of a suite, each with
 * its input, its record, the entries it came from and the expectations derived from the record
 * (the output is schema-valid, the gate passes when it passed, the same tools are called in the
 * same order). Reads only.
 */
public final class SuiteFreezer {
  private final SessionTurns turns;
  private final Clock clock;

  public SuiteFreezer(SessionTurns turns, Clock clock) {
    this.turns = turns;
    this.clock = clock;
  }

  /**
   * The cases of {@code sessionId}'s turns {@code only} (all turns when empty).
   *
   * @throws IllegalArgumentException for a session not in the ledgers, without turns, or a turn it does not have
   */
  public EvalSuite session(String sessionId, List<Integer> only) {
    return EvalSuite.of(clock.instant().toString(), cases(sessionId, only));
  }

  /**
   * The cases of every turn of the newest {@code limit} sessions of {@code agentClass} started at
   * or after {@code since}.
   *
   * @throws IllegalArgumentException when there is no such session
   */
  public EvalSuite agent(String agentClass, Instant since, int limit) {
    List<String> sessions = turns.sessionsOf(agentClass, since, limit);
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("no session of agent class " + agentClass + " started at or after " + since
          + " in the ledgers (see 'cpctl sessions')");
    }
    List<EvalCase> cases = new ArrayList<>();
    for (String sid : sessions) {
      SortedMap<Integer, List<CitedEntry>> byTurn = turns.read(sid);
      byTurn.forEach((turn, entries) -> cases.add(caseOf(sid, turn, entries)));
    }
    if (cases.isEmpty()) {
      throw new IllegalArgumentException("the " + sessions.size() + " session(s) of agent class " + agentClass
          + " since " + since + " have no turns on record: nothing to freeze");
    }
    return EvalSuite.of(clock.instant().toString(), cases);
  }

  private List<EvalCase> cases(String sessionId, List<Integer> only) {
    SortedMap<Integer, List<CitedEntry>> byTurn = turns.read(sessionId);
    if (byTurn.isEmpty()) {
      throw new IllegalArgumentException("session " + sessionId + " has no turns on record: nothing to freeze");
    }
    List<Integer> wanted = only == null || only.isEmpty() ? List.copyOf(byTurn.keySet()) : only;
    if (new java.util.HashSet<>(wanted).size() < wanted.size()) {
      throw new IllegalArgumentException("--turns " + wanted.stream().map(String::valueOf).collect(Collectors.joining(","))
          + ": a turn is given twice (case ids must be unique)");
    }
    for (int t : wanted) {
      if (!byTurn.containsKey(t)) {
        throw new IllegalArgumentException("--turns " + t + ": session " + sessionId + " has no turn " + t
            + " (its turns: " + byTurn.keySet().stream().map(String::valueOf).collect(Collectors.joining(",")) + ")");
      }
    }
    List<EvalCase> cases = new ArrayList<>();
    for (int t : wanted) {
      cases.add(caseOf(sessionId, t, byTurn.get(t)));
    }
    return cases;
  }

  /** One case: derived from the entries it cites, with the default expectations. */
  static EvalCase caseOf(String sessionId, int turn, List<CitedEntry> entries) {
    List<LedgerEntry> plain = entries.stream().map(CitedEntry::entry).toList();
    TurnDerivation.Derived d = TurnDerivation.derive(sessionId, turn, plain);
    return new EvalCase(EvalCase.idOf(sessionId, turn), d.input(), d.recorded(),
        entries.stream().map(CitedEntry::cite).toList(), defaultExpectations(d.recorded(), d.toolsRun()));
  }

  /** {@link #defaultExpectations(RecordedTurn, List)} for a turn whose every recorded tool call ran. */
  public static Expectations defaultExpectations(RecordedTurn recorded) {
    return defaultExpectations(recorded, recorded.tools().stream().map(RecordedToolCall::tool).toList());
  }

  /**
   * What a run must satisfy unless the user edits it: schema-valid output, the gate when it passed,
   * the same tools run ({@code toolsRun}: a call whose approval was denied or timed out did not run).
   */
  public static Expectations defaultExpectations(RecordedTurn recorded, List<String> toolsRun) {
    return new Expectations(true, recorded.gatePassed() ? Boolean.TRUE : null, toolsRun, null, null, null, null,
        null, null);
  }
}
