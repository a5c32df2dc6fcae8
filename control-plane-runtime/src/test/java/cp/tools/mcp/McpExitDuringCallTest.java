package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server that exits during a call ends that call as soon as it exited, saying so with its
 * exit status (its stderr in the log), and the next call starts it again. Before, the exit was
 * logged at once but the call waited out its whole request timeout and ended as tool_timeout.
 */
class McpExitDuringCallTest {
  /** Far longer than a process takes to exit: reaching it means the exit went unnoticed by the call. */
  static final McpSettings SLOW_REQUESTS = new McpSettings(Duration.ofSeconds(60), Duration.ofSeconds(20));
  /** Only a guard against hanging the suite; an exit is noticed in well under a second. */
  static final Duration GUARD = Duration.ofSeconds(30);

  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.of(McpConnection.class);

  @Test
  void aServerThatExitsDuringACall_endsTheCallAtOnce_withItsExitStatus_andIsStartedAgain() {
    try (McpConnection c = new McpConnection(MisbehavingServer.spec(tmp, "crashy", "ok"), System.getenv(),
        SLOW_REQUESTS)) {
      c.start();
      ToolResult crashed = assertTimeoutPreemptively(GUARD, () -> c.call("crash", Json.parse("{}")));

      assertEquals(ToolErrorCodes.SERVER_UNAVAILABLE, crashed.errorCode(), crashed::toString);
      assertTrue(crashed.content().contains("exited with status 7"), crashed::toString);
      assertTrue(crashed.content().contains("whether the tool ran is unknown"), crashed::toString);
      assertFalse(crashed.content().contains("out of cheese"), "its stderr goes to the log, not to the model");
      String warnings = String.join("\n", log.warnings());
      assertTrue(warnings.contains("crashy") && warnings.contains("out of cheese"), warnings);

      assertEquals(ToolResult.ok("called echo with {\"m\": \"again\"}"), c.call("echo", Json.parse("{\"m\":\"again\"}")));
      assertEquals(2, c.starts(), "started again for the next call");
    }
  }
}
