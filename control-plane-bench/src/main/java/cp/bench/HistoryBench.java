package cp.bench;

import cp.model.WorkOrderIds;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * P5: how much Temporal history a turn writes, from the sessions P1 ran: the session run's
 * history and each turn's child history, in bytes as the server counts them (serialized events)
 * and in events, and how many turns a session run could take before Temporal suggests
 * continue-as-new.
 */
final class HistoryBench {
  static final long TARGET_BYTES_PER_TURN = 20 * 1024;
  /** Temporal suggests continue-as-new from this many events in a run. */
  static final long SUGGEST_EVENTS = 4_096;
  /** ... or from this many bytes of history. */
  static final long SUGGEST_BYTES = 4L * 1024 * 1024;
  /** A run accepts at most this many Updates (turns) in total. */
  static final long UPDATES_PER_RUN = 2_000;

  /** Totals over the measured sessions. */
  record Sizes(long turns, long sessionBytes, long sessionEvents, long childBytes, long childEvents, long jsonBytes,
      TurnTimeline timeline) {
    double bytesPerTurn() {
      return (double) (sessionBytes + childBytes) / turns;
    }

    double eventsPerTurn() {
      return (double) (sessionEvents + childEvents) / turns;
    }
  }

  private final WorkflowClient client;
  private final List<String> sessions;
  private final int turnsPerSession;
  private final int continueAsNewTurns;

  HistoryBench(WorkflowClient client, List<String> sessions, int turnsPerSession, int continueAsNewTurns) {
    this.client = client;
    this.sessions = List.copyOf(sessions);
    this.turnsPerSession = turnsPerSession;
    this.continueAsNewTurns = continueAsNewTurns;
  }

  Sizes measure() {
    long turns = 0;
    long sb = 0;
    long se = 0;
    long cb = 0;
    long ce = 0;
    long json = 0;
    TurnTimeline timeline = new TurnTimeline();
    for (String sid : sessions) {
      WorkflowExecutionHistory s = client.fetchHistory(sid);
      sb += s.getHistory().getSerializedSize();
      se += s.getEvents().size();
      json += s.toJson(false).getBytes(StandardCharsets.UTF_8).length;
      for (int t = 1; t <= turnsPerSession; t++) {
        String turnId = WorkOrderIds.turnWorkflow(sid, t);
        WorkflowExecutionHistory c = client.fetchHistory(turnId);
        timeline.add(c.getEvents(), s.getEvents(), turnId);
        cb += c.getHistory().getSerializedSize();
        ce += c.getEvents().size();
        json += c.toJson(false).getBytes(StandardCharsets.UTF_8).length;
        turns++;
      }
    }
    return new Sizes(turns, sb, se, cb, ce, json, timeline);
  }

  List<Measure> run() {
    Sizes z = measure();
    double perTurn = z.bytesPerTurn();
    double sessionBytesPerTurn = (double) z.sessionBytes() / z.turns();
    double sessionEventsPerTurn = (double) z.sessionEvents() / z.turns();
    long projected = (long) Math.min(UPDATES_PER_RUN, Math.min(SUGGEST_EVENTS / sessionEventsPerTurn,
        SUGGEST_BYTES / sessionBytesPerTurn));
    String detail = String.format(Locale.ROOT, "%d turns in %d sessions; per turn: turn workflow %.1f KB in %.1f"
        + " events, session run %.1f KB in %.1f events; as exported JSON (payloads base64) %.1f KB",
        z.turns(), sessions.size(), z.childBytes() / 1024.0 / z.turns(), (double) z.childEvents() / z.turns(),
        sessionBytesPerTurn / 1024, sessionEventsPerTurn, z.jsonBytes() / 1024.0 / z.turns());
    return List.of(
        Measure.target(Measure.Id.P5, "history bytes per turn (session + turn workflow)",
            String.format(Locale.ROOT, "%.1f KB", perTurn / 1024), "≤ 20 KB", perTurn <= TARGET_BYTES_PER_TURN,
            detail),
        Measure.info(Measure.Id.P5, "history events per turn", String.format(Locale.ROOT, "%.1f", z.eventsPerTurn()),
            "session and turn workflow together"),
        Measure.info(Measure.Id.P5, "projected turns per session run before continue-as-new is suggested",
            String.valueOf(projected), "Temporal suggests it from " + SUGGEST_EVENTS + " events or 4 MB, and a run"
                + " takes at most " + UPDATES_PER_RUN + " Updates; the session continues as new every "
                + continueAsNewTurns + " turns anyway (CP_CONTINUE_AS_NEW_TURNS)"),
        Measure.info(Measure.Id.P5, "where an orchestrated turn's time goes (P1's turns)",
            String.format(Locale.ROOT, "%.0f ms in workflow tasks", z.timeline().medianTasks()),
            z.timeline().describe()));
  }
}
