package cp.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.OfflineProvider;
import cp.gateway.ProviderReply;
import cp.gateway.StreamSink;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.TurnEvent;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.workflows.TurnWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, P5 with streaming on and off: a turn whose model writes a 2,000-character reply in
 * 100 deltas, 20 ms apart, measured as {@code cpctl bench} P5 measures (the session and turn
 * workflows' histories, serialized, as the server counts them). Streaming costs a bounded number
 * of {@code reply_stream} signals (batches, never one per delta) and at most
 * {@link #STREAMING_EXTRA_BYTES} more history. Prints both sizes.
 *
 * <p>Measured (README "Live turns"): such a turn takes ~25 KB without streaming, above P5's 20 KB
 * goal before any streaming: the reply's text is in history five times (the LLM round's result
 * twice, as text and as parsed output; the turn's result; the session's child-completed event; the
 * Update's result). Streaming adds ~6 KB.
 */
class LiveTurnHistoryCostTest {
  static final int REPLY_CHARS = 2_000;
  static final int DELTAS = 100;
  static final long PAUSE_MS = 20;
  /**
   * What streaming may add to this turn's history: the 2,000 characters once more, plus ~350 bytes
   * a batch (the signal event and its workflow task) for the ~12 batches 2 s of text make at one
   * batch per 200 ms. More means batching broke.
   */
  static final long STREAMING_EXTRA_BYTES = 8 * 1024;

  record Cost(long bytes, long events, long signals, long deltas) {}

  static String reply() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < REPLY_CHARS; i++) {
      sb.append("sentence ").append(i).append(" of a long streamed answer. ");
    }
    return sb.substring(0, REPLY_CHARS);
  }

  Cost turn(Path home, boolean stream) {
    String text = reply();
    String json = Json.object().put("response_text", text).toString();
    var model = new LiveTurnEndToEndTest.Wrapped(new OfflineProvider()) {
      @Override
      ProviderReply synthesize(PromptRequest r, StreamSink sink) {
        int piece = json.length() / DELTAS + 1;
        for (int at = 0; at < json.length(); at += piece) {
          sink.text(json.substring(at, Math.min(json.length(), at + piece)));
          LiveTurnEndToEndTest.sleep(PAUSE_MS);
        }
        return new ProviderReply(java.util.List.of(ContentBlock.text(json)), 900, 600, "m", ProviderReply.STOP);
      }
    };
    Map<String, String> env = PlaneFixture.env(home, Map.of("CP_STREAM_REPLIES", String.valueOf(stream)));
    try (PlaneFixture plane = PlaneFixture.start(env, model, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      TurnResult r = plane.client.turn(sid, "write me a long answer");
      assertEquals(text, r.response());
      WorkflowExecutionHistory s = plane.connection.client().fetchHistory(sid);
      WorkflowExecutionHistory t = plane.connection.client().fetchHistory(WorkOrderIds.turnWorkflow(sid, 1));
      long signals = t.getEvents().stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
          .filter(e -> e.getWorkflowExecutionSignaledEventAttributes().getSignalName().equals(TurnWorkflow.REPLY_STREAM))
          .count();
      long deltas = LiveTurnEndToEndTest.all(plane, sid, 1).stream()
          .filter(e -> TurnEvent.TEXT_DELTA.equals(e.type())).count();
      return new Cost(s.getHistory().getSerializedSize() + t.getHistory().getSerializedSize(),
          s.getEvents().size() + t.getEvents().size(), signals, deltas);
    }
  }

  @Test
  void aTwoThousandCharacterReply_streamedInBatches_costsABoundedExtraHistory(@TempDir Path on, @TempDir Path off) {
    Cost streamed = turn(on, true);
    Cost whole = turn(off, false);

    System.out.println(String.format(Locale.ROOT, "P5 for a turn with a %d-character reply: streaming on %.1f KB in %d"
        + " events (%d reply_stream signals, %d text deltas); streaming off %.1f KB in %d events (%d deltas, at the"
        + " end); streaming adds %.1f KB", REPLY_CHARS, streamed.bytes() / 1024.0, streamed.events(), streamed.signals(),
        streamed.deltas(), whole.bytes() / 1024.0, whole.events(), whole.deltas(),
        (streamed.bytes() - whole.bytes()) / 1024.0));
    assertEquals(0, whole.signals(), "CP_STREAM_REPLIES=false: nothing streamed");
    assertTrue(streamed.signals() > 1 && streamed.signals() < DELTAS / 4, "batched: " + streamed);
    assertTrue(streamed.bytes() - whole.bytes() <= STREAMING_EXTRA_BYTES, "on: " + streamed + ", off: " + whole);
  }
}
