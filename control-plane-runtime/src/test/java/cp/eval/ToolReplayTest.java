package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import cp.model.Json;
import cp.tools.ToolExecutor;
import cp.tools.ToolInvocation;
import cp.tools.ToolResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ToolReplay}: what answers a tool call of an eval session, and what still reaches the real executor. */
class ToolReplayTest {
  private final List<String> ranLive = new ArrayList<>();
  private final ToolExecutor live = new ToolExecutor() {
    @Override
    public ToolResult execute(String agentClass, String sessionId, String toolId,
        com.fasterxml.jackson.databind.JsonNode arguments, List<String> allowedTools) {
      ranLive.add(toolId);
      return allowedTools.contains(toolId) ? ToolResult.ok("live " + toolId)
          : ToolResult.refused("tool_not_allowed", toolId + " is not allowed");
    }

    @Override
    public String originOf(String toolId) {
      return "builtin";
    }
  };

  private static ToolInvocation call(String session, String tool, String args, List<String> allowed) {
    return new ToolInvocation("ADMIN", session, "WO-1", tool, Json.parse(args), allowed, "k-" + tool + args);
  }

  @Test
  void theRecordedResultAnswersTheSameToolAndArguments_andNothingRuns() {
    ToolReplay replay = new ToolReplay(live);
    replay.replay("SES-00000001", List.of(
        new RecordedToolCall("read_file", Json.parse("{\"path\":\"a.md\"}"), TextNode.valueOf("A"), false),
        new RecordedToolCall("read_file", Json.parse("{\"path\":\"b.md\"}"), TextNode.valueOf("no such file"), true),
        new RecordedToolCall("list_packages", null, Json.parse("{\"n\":2}"), false)));
    List<String> allowed = List.of("read_file", "list_packages");

    assertEquals(ToolResult.ok("A"), replay.execute(call("SES-00000001", "read_file", "{\"path\":\"a.md\"}", allowed)));
    ToolResult b = replay.execute(call("SES-00000001", "read_file", "{\"path\":\"b.md\"}", allowed));
    assertEquals(ToolResult.ERROR, b.status());
    assertEquals("no such file", b.content());
    assertEquals("{\"n\":2}", replay.execute(call("SES-00000001", "list_packages", "{}", allowed)).content(),
        "absent arguments are the empty object; a JSON result is given back as its text");
    assertEquals(List.of(), ranLive);
    assertEquals(ToolReplay.ORIGIN, replay.originOf("read_file"));
  }

  @Test
  void aCallTheRecordLacks_isAnErrorResult_notRun() {
    ToolReplay replay = new ToolReplay(live);
    replay.replay("SES-00000001", List.of());
    ToolResult r = replay.execute(call("SES-00000001", "read_file", "{\"path\":\"c.md\"}", List.of("read_file")));
    assertEquals(ToolReplay.UNRECORDED, r.errorCode());
    assertTrue(r.content().contains("--live-tools"), r.content());
    assertEquals(List.of(), ranLive);
  }

  @Test
  void aToolTheWorkOrderDoesNotAllow_goesToTheRealDispatcher_whichRefusesIt_andOtherSessionsRunLive() {
    ToolReplay replay = new ToolReplay(live);
    replay.replay("SES-00000001", List.of(new RecordedToolCall("write_file", Json.object(), TextNode.valueOf("ok"),
        false)));
    assertEquals(ToolResult.REFUSED, replay.execute(call("SES-00000001", "write_file", "{}", List.of())).status(),
        "never answered from the record when the grant does not allow it");
    assertEquals("live read_file", replay.execute(call("SES-00000002", "read_file", "{}", List.of("read_file")))
        .content());
    assertEquals(List.of("write_file", "read_file"), ranLive);
    assertEquals("builtin", new ToolReplay(live).originOf("read_file"), "no session replayed: the tool's own origin");
  }
}
