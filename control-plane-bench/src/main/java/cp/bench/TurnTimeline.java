package cp.bench;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where an orchestrated turn's time goes, read from the service's event timestamps (millisecond
 * resolution): workflow tasks (scheduled to completed, which includes the local activities they
 * ran), activity tasks waiting to be picked up, activities running (the provider's latency is
 * in there), and the hand-offs between the session and its turn's child workflow.
 */
final class TurnTimeline {
  /** Per-turn sums in milliseconds, each a list with one value per turn. */
  final List<Double> turnTasks = new ArrayList<>();
  final List<Double> activityQueue = new ArrayList<>();
  final List<Double> activityRun = new ArrayList<>();
  final List<Double> sessionTasks = new ArrayList<>();
  final List<Double> childStart = new ArrayList<>();
  final List<Double> childResult = new ArrayList<>();

  /** Adds one turn: its child workflow's history and the session history it ran in. */
  void add(List<HistoryEvent> events, List<HistoryEvent> s, String turnWorkflowId) {
    turnTasks.add(sum(events, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    activityQueue.add(sum(events, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED));
    activityRun.add(sum(events, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED));
    long turnStart = millis(events.get(0));
    long turnEnd = millis(events.get(events.size() - 1));
    // In the session: the child's initiation, start and result, and the workflow tasks from the
    // one that accepted the turn's Update to the one that completed it.
    int initiated = -1;
    for (int i = 0; i < s.size() && initiated < 0; i++) {
      HistoryEvent e = s.get(i);
      if (e.getEventType() == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED
          && e.getStartChildWorkflowExecutionInitiatedEventAttributes().getWorkflowId().equals(turnWorkflowId)) {
        initiated = i;
      }
    }
    if (initiated < 0) {
      throw new IllegalStateException("session history has no child " + turnWorkflowId);
    }
    int first = initiated;
    while (first > 0 && s.get(first).getEventType() != EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
      first--;
    }
    int last = initiated;
    long completedAt = -1;
    while (last < s.size() - 1 && s.get(last).getEventType() != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED) {
      HistoryEvent e = s.get(last);
      if (e.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED
          && e.getChildWorkflowExecutionCompletedEventAttributes().getInitiatedEventId()
              == s.get(initiated).getEventId()) {
        completedAt = millis(e);
      }
      last++;
    }
    sessionTasks.add(sum(s.subList(first, last + 1), EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
        EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    childStart.add((double) (turnStart - millis(s.get(initiated))));
    childResult.add(completedAt < 0 ? 0.0 : (double) (completedAt - turnEnd));
  }

  /** Median per turn of the session's and the turn's workflow tasks together. */
  double medianTasks() {
    List<Double> both = new ArrayList<>();
    for (int i = 0; i < turnTasks.size(); i++) {
      both.add(turnTasks.get(i) + sessionTasks.get(i));
    }
    return Stats.percentile(both, 50);
  }

  /** One line: the median per turn of each part. */
  String describe() {
    return String.format(Locale.ROOT, "median per turn, from the service's event times: turn workflow tasks"
        + " (with their local activities) %.0f ms, activity tasks waiting for a worker %.0f ms, activities"
        + " running (provider latency included) %.0f ms, session workflow tasks %.0f ms, child start %.0f ms,"
        + " child result back to the session %.0f ms", Stats.percentile(turnTasks, 50),
        Stats.percentile(activityQueue, 50), Stats.percentile(activityRun, 50), Stats.percentile(sessionTasks, 50),
        Stats.percentile(childStart, 50), Stats.percentile(childResult, 50));
  }

  /** Sum over pairs: each {@code to} event's time minus its {@code from} event's (the nearest before it). */
  private static double sum(List<HistoryEvent> events, EventType from, EventType to) {
    double total = 0;
    Long open = null;
    for (HistoryEvent e : events) {
      if (e.getEventType() == from) {
        open = millis(e);
      } else if (e.getEventType() == to && open != null) {
        total += millis(e) - open;
        open = null;
      }
    }
    return total;
  }

  private static long millis(HistoryEvent e) {
    return e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
  }
}
