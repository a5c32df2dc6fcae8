package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Timestamp;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.ChildWorkflowExecutionCompletedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.StartChildWorkflowExecutionInitiatedEventAttributes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The time split of one turn, read from hand-built histories with known gaps. */
class TurnTimelineTest {
  static final String TURN_1 = "SES-00000001/turn-0001";
  static final String TURN_2 = "SES-00000001/turn-0002";

  private final List<HistoryEvent> session = new ArrayList<>();

  TurnTimelineTest() {
    add(session, at(900, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED));
  }

  private static HistoryEvent.Builder at(long millis, EventType type) {
    return HistoryEvent.newBuilder().setEventType(type)
        .setEventTime(Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000));
  }

  private long add(List<HistoryEvent> h, HistoryEvent.Builder e) {
    long id = h.size() + 1;
    h.add(e.setEventId(id).build());
    return id;
  }

  /** A session turn: the accepting task, the child's start and result, the completing task. */
  private void sessionTurn(long t0, String child, long childStartedAt, long childCompletedAt) {
    add(session, at(t0, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(session, at(t0 + 1, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(session, at(t0 + 4, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    add(session, at(t0 + 4, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED));
    long initiated = add(session, at(t0 + 4, EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED)
        .setStartChildWorkflowExecutionInitiatedEventAttributes(
            StartChildWorkflowExecutionInitiatedEventAttributes.newBuilder().setWorkflowId(child)));
    add(session, at(childStartedAt, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED));
    add(session, at(childStartedAt, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(session, at(childStartedAt, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(session, at(childStartedAt + 3, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    add(session, at(childCompletedAt, EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED)
        .setChildWorkflowExecutionCompletedEventAttributes(
            ChildWorkflowExecutionCompletedEventAttributes.newBuilder().setInitiatedEventId(initiated)));
    add(session, at(childCompletedAt, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(session, at(childCompletedAt + 1, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(session, at(childCompletedAt + 3, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    add(session, at(childCompletedAt + 3, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED));
  }

  /** A turn: two workflow tasks of 7 ms around one activity that waited 1 ms and ran 200 ms. */
  private List<HistoryEvent> turn(long t0) {
    List<HistoryEvent> h = new ArrayList<>();
    add(h, at(t0, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED));
    add(h, at(t0, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(h, at(t0 + 1, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(h, at(t0 + 7, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    add(h, at(t0 + 7, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED));
    add(h, at(t0 + 8, EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED));
    add(h, at(t0 + 208, EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED));
    add(h, at(t0 + 208, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED));
    add(h, at(t0 + 208, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED));
    add(h, at(t0 + 215, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    add(h, at(t0 + 215, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED));
    return h;
  }

  @Test
  void splitsTheSecondTurnOnlyFromItsOwnSessionEvents() {
    sessionTurn(1_000, TURN_1, 1_010, 1_300);
    sessionTurn(5_000, TURN_2, 5_006, 5_400);
    TurnTimeline timeline = new TurnTimeline();

    timeline.add(turn(5_006), session, TURN_2);

    assertEquals(List.of(14.0), timeline.turnTasks);
    assertEquals(List.of(1.0), timeline.activityQueue);
    assertEquals(List.of(200.0), timeline.activityRun);
    assertEquals(List.of(10.0), timeline.sessionTasks, "4 + 3 + 3 ms of this turn's session tasks, not turn 1's");
    assertEquals(List.of(2.0), timeline.childStart, "initiated at 5004, child started at 5006");
    assertEquals(List.of(179.0), timeline.childResult, "child completed at 5221, the session saw it at 5400");
    assertEquals(24.0, timeline.medianTasks());
    assertTrue(timeline.describe().contains("session workflow tasks 10 ms"), timeline.describe());
  }

  @Test
  void aSessionWithoutTheChildIsAnError() {
    sessionTurn(1_000, TURN_1, 1_010, 1_300);

    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new TurnTimeline().add(turn(1_010), session, TURN_2));
    assertTrue(e.getMessage().contains(TURN_2), e.getMessage());
  }
}
