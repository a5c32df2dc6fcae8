package cp.worker.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.OfflineProvider;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.tools.ToolResult;
import cp.worker.HistoryReplayer;
import cp.worker.PlaneFixture;
import cp.worker.TemporalOptions;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code CP_PAYLOAD_KEY} set, a real turn leaves no prompt or answer text in Temporal's
 * history, and the history still replays with the key. The same turn without the key shows the
 * text, so the check can fail.
 */
class PayloadEncryptionTest {
  @TempDir Path home;

  private final String marker = "zebra-quartz-" + HexFormat.of().formatHex(SecureRandom.getSeed(6));
  /** A distinctive message; "what packages" makes the offline model call a tool, so tool I/O is in history too. */
  private final String message = "what packages are installed? my codename is " + marker;

  private static String randomKeyBase64() {
    byte[] raw = new byte[32];
    new SecureRandom().nextBytes(raw);
    return Base64.getEncoder().encodeToString(raw);
  }

  /** Runs one turn and ends the session; returns the session's and the turn's histories. */
  private Run runTurn(Map<String, String> extraEnv) {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, extraEnv), new OfflineProvider(),
        deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("cp-core 1.0.0 (listed for " + marker + ")"))) {
      String sid = plane.client.startSession("ADMIN");
      TurnResult r = plane.client.turn(sid, message);
      plane.client.end(sid);
      return new Run(r, plane.histories(sid));
    }
  }

  private record Run(TurnResult result, List<WorkflowExecutionHistory> histories) {}

  @Test
  void withTheKey_promptsAndAnswersAreCiphertextInHistory_andTheHistoryReplaysWithTheKey() {
    String b64 = randomKeyBase64();
    PayloadKey key = PayloadKey.parse(b64);

    Run run = runTurn(Map.of("CP_PAYLOAD_KEY", b64));

    assertEquals(TurnOutcome.SUCCESS, run.result().outcome(), run.result().response());
    assertFalse(run.result().toolCalls().isEmpty(), "the turn called a tool, so tool I/O crossed the history");
    assertEquals(2, run.histories().size(), "session and turn-0001");
    for (WorkflowExecutionHistory h : run.histories()) {
      String id = h.getWorkflowExecution().getWorkflowId();
      assertFalse(PlaneFixture.mentions(h, marker), id + ": the user's text is readable in history");
      assertFalse(PlaneFixture.mentions(h, "response_text"), id + ": an answer is readable in history");
      List<PlaneFixture.PayloadAt> payloads = PlaneFixture.payloads(h);
      assertTrue(payloads.stream().filter(p -> !isTemporalBookkeeping(p)).count() >= 3, id + ": " + payloads);
      for (PlaneFixture.PayloadAt p : payloads) {
        if (!isTemporalBookkeeping(p)) {
          assertEquals("binary/encrypted", p.encoding(), id + " event " + p.eventId() + " " + p.path());
        }
      }
      assertTrue(PlaneFixture.mentions(h, "binary/encrypted"), id);
      assertTrue(PlaneFixture.mentions(h, key.id()), id + ": payloads name their key id");
    }

    try (HistoryReplayer withKey = new HistoryReplayer(TemporalOptions.dataConverter(Optional.of(key)))) {
      for (WorkflowExecutionHistory h : run.histories()) {
        HistoryReplayer.Outcome o = withKey.replay(h);
        assertTrue(o.ok(), o.workflowId() + ": " + o.problem());
      }
    }
    try (HistoryReplayer withoutKey = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = withoutKey.replay(run.histories().get(1));
      assertFalse(o.ok());
      assertTrue(o.problem().contains("key id " + key.id()) && o.problem().contains("CP_PAYLOAD_KEY is not set"),
          o.problem());
    }
    PayloadKey other = PayloadKey.parse(randomKeyBase64());
    try (HistoryReplayer wrongKey = new HistoryReplayer(TemporalOptions.dataConverter(Optional.of(other)))) {
      HistoryReplayer.Outcome o = wrongKey.replay(run.histories().get(0));
      assertFalse(o.ok());
      assertTrue(o.problem().contains("key id " + key.id()) && o.problem().contains("key id " + other.id()),
          o.problem());
    }
  }

  /**
   * Plain by design: search attributes (Temporal indexes them; never user text, see DESIGN.md) and
   * the SDK's own local-activity marker fields (activity id and type, schedule time, attempt).
   */
  /**
   * Payloads the SDK writes for itself, never through the codec: search attributes, a local
   * activity marker's id, type, time and meta, and a version marker's change id and version
   * (the constant names of workflow changes, such as "lean-turn").
   */
  private static boolean isTemporalBookkeeping(PlaneFixture.PayloadAt p) {
    return p.path().contains(".search_attributes.")
        || p.path().matches(".*marker_recorded_event_attributes\\.details\\[(activityId|type|time|meta|changeId|version)\\]"
            + ".*");
  }

  @Test
  void withoutTheKey_theSameTurnIsReadableInHistory_soTheCheckAboveCanFail() {
    Run run = runTurn(Map.of());

    assertEquals(TurnOutcome.SUCCESS, run.result().outcome(), run.result().response());
    for (WorkflowExecutionHistory h : run.histories()) {
      assertTrue(PlaneFixture.mentions(h, marker), h.getWorkflowExecution().getWorkflowId());
      assertFalse(PlaneFixture.mentions(h, "binary/encrypted"));
      assertTrue(PlaneFixture.payloads(h).stream().filter(p -> !isTemporalBookkeeping(p))
          .allMatch(p -> p.encoding().equals("json/plain")));
    }
    try (HistoryReplayer plain = new HistoryReplayer()) {
      for (WorkflowExecutionHistory h : run.histories()) {
        assertTrue(plain.replay(h).ok());
      }
    }
  }
}
