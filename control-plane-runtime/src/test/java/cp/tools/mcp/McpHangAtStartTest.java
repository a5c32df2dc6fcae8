package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server whose start fails leaves no process behind, and says what did not happen in
 * words: one that never answers the handshake (and ignores SIGTERM, with a child that does too) is
 * killed with its child when the start timeout ends; one that dies while its tools are listed fails
 * the start at once with its exit status, its stderr in the log. Before, the hung server and its
 * child were sent SIGTERM only (SIGKILL was scheduled two seconds later, after {@code cpctl} had
 * exited), and a server that died during the listing was waited for until the start timeout.
 */
class McpHangAtStartTest {
  /** Long enough for a loaded machine to start a shell that writes its pid; short enough for a quick test. */
  static final McpSettings QUICK_START = new McpSettings(Duration.ofSeconds(30), Duration.ofSeconds(3));
  /** Far longer than a process takes to exit: reaching it means the exit went unnoticed. */
  static final McpSettings SLOW_START = new McpSettings(Duration.ofSeconds(30), Duration.ofSeconds(120));
  static final Duration GUARD = Duration.ofSeconds(60);

  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.of(McpConnection.class);

  @AfterEach
  void cleanUp() {
    HangingServer.cleanUp(tmp, "hung");
  }

  @Test
  void aServerThatNeverAnswers_failsAtTheStartTimeout_andNoneOfItsProcessesIsLeft() {
    try (McpConnection c = new McpConnection(HangingServer.spec(tmp, "hung"), System.getenv(), QUICK_START)) {
      McpUnavailableException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(McpUnavailableException.class,
          c::start));

      assertEquals(List.of(), HangingServer.stillRunning(tmp, "hung"), "the server and its child, once start failed");
      assertTrue(e.getMessage().contains("did not answer the MCP handshake within the start timeout of 3000 ms"),
          e.getMessage());
      assertFalse(e.getMessage().contains("Did not observe"), e.getMessage());
    }
  }

  @Test
  void aServerThatDiesWhileItsToolsAreListed_failsAtOnce_withItsExitStatus_andItsStderrInTheLog() {
    try (McpConnection c = new McpConnection(MisbehavingServer.spec(tmp, "lister", "dieonlist"), System.getenv(),
        SLOW_START)) {
      McpUnavailableException e = assertTimeoutPreemptively(GUARD, () -> assertThrows(McpUnavailableException.class,
          c::start));

      assertTrue(e.getMessage().contains("exited with status 5 while its tools were listed"), e.getMessage());
      assertFalse(e.getMessage().contains("database is locked"), "its stderr goes to the log, not to the model");
      String warnings = String.join("\n", log.warnings());
      assertTrue(warnings.contains("mcp server lister") && warnings.contains("exited with status 5")
          && warnings.contains("the tools database is locked"), warnings);
      assertFalse(c.alive());
    }
  }
}
