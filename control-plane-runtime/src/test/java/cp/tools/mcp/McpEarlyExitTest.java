package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio MCP server that exits before it answers the handshake (a missing script, a bad
 * argument, a crash at start: the commonest broken server) is unavailable as soon as it exited,
 * saying so, with what it wrote to stderr in the log; before, the worker waited out the whole start
 * timeout (20 s by default) and reported Reactor's "Did not observe any item or terminal signal".
 */
class McpEarlyExitTest {
  /** Far longer than a process takes to exit: reaching it means the exit went unnoticed. */
  static final McpSettings SLOW_START = new McpSettings(Duration.ofSeconds(30), Duration.ofSeconds(120));
  /** Only a guard against hanging the suite; an exit is noticed in well under a second. */
  static final Duration GUARD = Duration.ofSeconds(60);

  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.of(McpConnection.class);

  private McpUnavailableException startFails(McpServerSpec.Stdio spec) {
    try (McpConnection c = new McpConnection(spec, System.getenv(), SLOW_START)) {
      return assertTimeoutPreemptively(GUARD, () -> assertThrows(McpUnavailableException.class, c::start));
    }
  }

  private String warnings() {
    return String.join("\n", log.warnings());
  }

  @Test
  void aServerThatExitsAtOnce_isUnavailableAtOnce_andItsStderrIsLogged() {
    McpUnavailableException e = startFails(new McpServerSpec.Stdio("broken", "sh",
        List.of("-c", "echo 'Error: no config file' >&2; exit 3"), Map.of(), tmp));

    assertTrue(e.getMessage().contains("exited with status 3 before answering"), e.getMessage());
    assertFalse(e.getMessage().contains("Did not observe"), e.getMessage());
    assertTrue(warnings().contains("mcp server broken") && warnings().contains("Error: no config file"), warnings());
  }

  @Test
  void aNodeServerWhoseScriptIsMissing_saysSo() {
    McpUnavailableException e = startFails(new McpServerSpec.Stdio("missing", "node",
        List.of(tmp.resolve("no-such-server.js").toString()), Map.of(), tmp));

    assertTrue(e.getMessage().contains("exited with status 1 before answering"), e.getMessage());
    assertTrue(warnings().contains("Cannot find module"), warnings());
  }
}
