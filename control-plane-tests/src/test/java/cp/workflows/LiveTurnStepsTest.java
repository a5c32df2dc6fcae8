package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: the turn's step names become typed events — a step finishes when the next begins,
 * a tool is requested and finished, an approval's wait and decision sit inside the tool's step,
 * the runner repeating the turn's own step name adds nothing — and a turn before version
 * {@code live-turn} 1 keeps no events.
 */
class LiveTurnStepsTest {
  static List<String> shape(LiveTurn live) {
    return live.events(1).events().stream().map(e -> e.type() + ":" + (e.tool() != null ? e.tool()
        : e.step() != null ? e.step() : e.text())).toList();
  }

  @Test
  void stepsToolsAndApprovals_becomeTypedEventsInOrder() {
    LiveTurn live = new LiveTurn();
    live.start("SES-1/turn-0001");
    for (String s : List.of("classify", "classify", "attention", "synthesize", "synthesize", "tool write_file",
        "waiting for approval APR-1 (write_file)", "tool write_file (granted)", "synthesize round 2", "quality gate")) {
      live.step(s);
    }
    live.done("Written.", "success");

    assertEquals(List.of("step_started:classify", "step_finished:classify", "step_started:attention",
        "step_finished:attention", "step_started:synthesize", "step_finished:synthesize",
        "tool_requested:write_file", "approval_pending:waiting for approval APR-1 (write_file)",
        "approval_decided:tool write_file (granted)", "tool_finished:write_file", "step_started:synthesize round 2",
        "step_finished:synthesize round 2", "step_started:quality gate", "step_finished:quality gate",
        "text_delta:Written.", "done:Written."), shape(live));
    assertTrue(live.events(1).done());
  }

  @Test
  void aTurnBeforeLiveTurns_keepsNoEvents() {
    LiveTurn live = new LiveTurn();
    live.step("classify");
    live.rejected();
    live.done("text", "success");

    assertEquals(List.of(), live.events(1).events());
    assertEquals(1, live.events(1).nextSeq());
    assertTrue(!live.events(1).done());
  }
}
