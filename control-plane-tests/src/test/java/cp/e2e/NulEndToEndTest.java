package cp.e2e;

import static cp.e2e.ScriptedModel.answers;
import static cp.e2e.ScriptedModel.callsTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.ContentBlock;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.tools.ToolErrorCodes;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1, "NUL and database errors reach the model", through a whole session on the JSONL
 * store: a NUL in a model-chosen {@code query_ledger} filter is refused as invalid arguments
 * before any ledger is read, and the model reads one plain sentence (no database, no class
 * name); a model reply carrying a NUL passes through the gateway to the user unchanged, and the
 * ledger that recorded it still verifies and reads back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NulEndToEndTest {
  private static final String NUL = "\u0000";
  private final ScriptedModel model = new ScriptedModel();
  private PlaneFixture plane;

  @BeforeAll
  void startPlane(@TempDir Path home) {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model, PlaneRuntime::builtinTools);
  }

  @AfterAll
  void stopPlane() {
    if (plane != null) {
      plane.close();
    }
  }

  @BeforeEach
  void resetModel() {
    model.reset();
  }

  @Test
  void aNulInAQueryLedgerFilter_isRefusedPlainly_andTheModelCanCarryOn() {
    model.synthesize(callsTool("query_ledger", "{\"tier\":\"hot\",\"event_type\":\"EXCHANGE\\u0000x\"}"),
        answers("The filter was refused; here is what I know."));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "show the last exchanges");

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    assertEquals(1, r.toolCalls().size());
    LedgerEntry call = plane.runtime.ledgers().ho1().bySession(sid).stream()
        .filter(e -> "TOOL_CALL".equals(e.eventType())).findFirst().orElseThrow();
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, call.metaText("error_code"), call::toString);
    String toolResult = toolResultText(model.synthesizeRequests.get(1));
    assertTrue(toolResult.contains("event_type contains the control character U+0000"), toolResult);
    for (String internal : List.of("jdbc", "Exception", "UTF8", NUL)) {
      assertFalse(toolResult.contains(internal), "the model read " + internal + ": " + toolResult);
    }
  }

  @Test
  void aReplyCarryingANul_reachesTheUserUnchanged_andTheLedgerStillVerifies() {
    model.synthesize(answers("before" + NUL + "after")).thenForever(answers("Still here."));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
    assertEquals("before" + NUL + "after", r.response());
    LedgerStream hot = plane.runtime.ledgers().hot();
    assertTrue(hot.verify().ok(), hot.verify().reason());
    boolean recorded = hot.bySession(sid).stream().filter(e -> "EXCHANGE".equals(e.eventType()))
        .anyMatch(e -> String.valueOf(e.metaText("response")).contains("before" + NUL + "after")
            || String.valueOf(e.metaText("response")).contains("before\\u0000after"));
    assertTrue(recorded, "the EXCHANGE holds the reply as the provider sent it");
    TurnResult next = plane.client.turn(sid, "and now?");
    assertEquals(TurnOutcome.SUCCESS, next.outcome(), "the session goes on after it: " + next);
  }

  /** The text of the tool_result blocks the model was sent in {@code r}. */
  private static String toolResultText(PromptRequest r) {
    StringBuilder sb = new StringBuilder();
    for (Message m : r.messages()) {
      for (ContentBlock b : m.content()) {
        if (b.isToolResult()) {
          sb.append(b.content());
        }
      }
    }
    return sb.toString();
  }
}
