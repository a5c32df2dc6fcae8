package cp.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.WorkOrderIds;
import cp.worker.HistoryReplayer;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.workflows.TurnWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: a streamed turn's recorded history (the {@code live-turn} version marker and the
 * {@code reply_stream} signals the LLM-round activity sent) replays against the current code; the
 * histories recorded before it (ReplayTest) replay too, the marker absent. Re-record with
 * {@code -Dcp.recordHistories=live-streamed-turn.json} after a deliberate, versioned change.
 */
class LiveTurnReplayTest {
  static final Path FILE = Path.of("src/test/resources/histories/live-streamed-turn.json");

  @Test
  void aStreamedTurnsHistory_replays_andHoldsItsBatchesAsSignals(@TempDir Path home) throws Exception {
    String which = System.getProperty("cp.recordHistories", "");
    if (!Files.isRegularFile(FILE) || which.contains(FILE.getFileName().toString())) {
      record(home);
    }
    String json = Files.readString(FILE, StandardCharsets.UTF_8);
    WorkflowExecutionHistory h = WorkflowExecutionHistory.fromJson(json);
    assertTrue(PlaneFixture.mentions(h, "live-turn"), "no live-turn version marker");
    long signals = h.getEvents().stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
        .filter(e -> e.getWorkflowExecutionSignaledEventAttributes().getSignalName().equals(TurnWorkflow.REPLY_STREAM))
        .count();
    assertTrue(signals >= 1, "the reply streamed to the turn");
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replayJson(json);
      assertTrue(o.ok(), o.problem());
    }
  }

  @Test
  void aHistoryRecordedBeforeLiveTurns_hasNoMarker_andStillReplays() throws Exception {
    String json = Files.readString(Path.of("src/test/resources/histories/lean-plain-turn.json"), StandardCharsets.UTF_8);
    assertFalse(PlaneFixture.mentions(WorkflowExecutionHistory.fromJson(json), "live-turn"));
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replayJson(json);
      assertTrue(o.ok(), o.problem());
    }
  }

  private static void record(Path home) throws Exception {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      plane.client.turn(sid, "Tell me how a durable workflow recovers after its worker dies");
      WorkflowExecutionHistory h = plane.connection.client().fetchHistory(WorkOrderIds.turnWorkflow(sid, 1));
      Files.writeString(FILE, h.toJson(true), StandardCharsets.UTF_8);
      assertEquals(FILE.getFileName().toString(), "live-streamed-turn.json");
    }
  }
}
