package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl sessions} and {@code cpctl show}: a session's history read back from the ledgers, no service needed. */
class SessionHistoryCommandsTest {
  @TempDir Path home;

  @Test
  void sessionsOnAnEmptyHome_saysThereAreNone() {
    var r = run(CliHarness.env(home), "sessions");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().startsWith("no sessions recorded"), r::describe);
  }

  @Test
  void sessions_listsEachChatSessionWithItsAgentAndEnd() {
    String first = CliHarness.chat(CliHarness.env(home));
    String second = CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "sessions");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    List<String> rows = r.out().lines().filter(l -> l.startsWith("SES-")).toList();
    assertEquals(2, rows.size(), r::describe);
    assertTrue(rows.get(0).startsWith(first) && rows.get(1).startsWith(second), () -> "oldest first\n" + r.describe());
    for (String row : rows) {
      assertTrue(row.contains("ADMIN") && row.trim().endsWith("end"), r::describe);
    }
  }

  @Test
  void show_printsEachTurnWithInputReplyAndWorkOrderChain() {
    String sid = CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "show", sid);
    assertEquals(Cpctl.OK, r.code(), r::describe);
    String out = r.out();
    assertTrue(out.startsWith(sid + "  agent ADMIN"), r::describe);
    assertTrue(out.contains("ended ") && out.contains("(end)"), r::describe);
    assertTrue(out.contains("turn 1  [success]") && out.contains("turn 2  [success]"), r::describe);
    assertTrue(out.contains("  user:  hello\n") && out.contains("  user:  what packages are installed?\n"), r::describe);
    assertEquals(2, out.lines().filter(l -> l.startsWith("  reply: ") && !l.contains("(none)")).count(), r::describe);
    String hex = sid.substring(4);
    for (String wo : List.of("0001-01  classify", "0001-02  synthesize", "0002-01  classify", "0002-02  synthesize")) {
      assertTrue(out.contains("  WO-" + hex + "-" + wo + "  completed"), () -> "WO " + wo + "\n" + r.describe());
    }
    assertTrue(out.contains("LLM calls 3  tool calls 1"), () -> "turn 2: three rounds, one tool\n" + r.describe());
    assertTrue(out.contains("total: 2 turn(s)"), r::describe);
  }

  @Test
  void showAsJson_isOneSnakeCaseDocumentWithTheTurns() {
    String sid = CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "show", sid, "--json");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    JsonNode view = Json.parse(r.out());
    assertEquals(sid, view.path("session_id").asText(), r::describe);
    assertEquals(2, view.path("turns").size(), r::describe);
    JsonNode turn2 = view.path("turns").path(1);
    assertEquals(2, turn2.path("chain").size(), r::describe);
    assertEquals("WO-" + sid.substring(4) + "-0002-01", turn2.path("chain").path(0).path("wo_id").asText(),
        () -> "snake_case keys, like turn --json and the ledgers\n" + r.describe());
    assertEquals(1, turn2.path("tool_calls").asInt(), r::describe);
    assertTrue(turn2.path("input_tokens").asLong() > 0, r::describe);
  }

  @Test
  void showOfAnUnknownSession_isRefusedInOneLine() {
    CliHarness.chat(CliHarness.env(home));
    var r = run(CliHarness.env(home), "show", "SES-deadbeef");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("SES-deadbeef") && r.err().contains("cpctl sessions"), r::describe);
  }
}
