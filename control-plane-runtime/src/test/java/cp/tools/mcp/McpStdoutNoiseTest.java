package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ILoggingEvent;
import cp.model.Json;
import cp.tools.ToolResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server that writes a line that is not JSON-RPC to stdout (a banner, a stray debug print)
 * has that line skipped, with one short log line, and the protocol goes on. Before, the SDK's reader
 * stopped at the first such line: the start stalled for the whole start timeout, or every later
 * call timed out, and the server was never restarted.
 */
class McpStdoutNoiseTest {
  /** Short, so that a stalled reader fails the test in seconds, not minutes. */
  static final McpSettings QUICK = new McpSettings(Duration.ofSeconds(5), Duration.ofSeconds(10));

  @TempDir Path tmp;
  @RegisterExtension final CapturedLog log = CapturedLog.named(McpConnection.class.getName(),
      IsolatedStdioTransport.class.getName(), "io.modelcontextprotocol");

  private List<ILoggingEvent> warnings() {
    return log.warningEvents();
  }

  @Test
  void aBannerBeforeTheHandshake_isSkipped_andTheServerStarts() {
    try (McpConnection c = new McpConnection(MisbehavingServer.spec(tmp, "noisy", "banner"), System.getenv(), QUICK)) {
      assertTrue(c.start().names().contains("echo"));
      assertEquals(ToolResult.ok("called echo with {\"m\": \"hi\"}"), c.call("echo", Json.parse("{\"m\":\"hi\"}")));
    }
    List<ILoggingEvent> w = warnings();
    assertEquals(1, w.size(), () -> "one log line for the banner: " + w);
    String line = w.get(0).getFormattedMessage();
    assertTrue(line.contains("noisy") && line.contains("Welcome to the test server"), line);
    assertFalse(line.contains("\n"), line);
    assertEquals(null, w.get(0).getThrowableProxy(), "no stack trace");
  }

  @Test
  void aNonJsonLineBeforeAnAnswer_isSkipped_andThatCallAndTheNextWork() {
    try (McpConnection c = new McpConnection(MisbehavingServer.spec(tmp, "noisy", "ok"), System.getenv(), QUICK)) {
      c.start();
      assertEquals(ToolResult.ok("called junkreply with {}"), c.call("junkreply", Json.parse("{}")));
      assertEquals(ToolResult.ok("called junkreply with {}"), c.call("junkreply", Json.parse("{}")));
      assertEquals(ToolResult.ok("called echo with {\"m\": \"after\"}"), c.call("echo", Json.parse("{\"m\":\"after\"}")));
      assertEquals(1, c.starts(), "the same server served every call");
    }
    List<ILoggingEvent> w = warnings();
    assertEquals(1, w.size(), () -> "the first skipped line is logged once, at WARN: " + w);
    assertTrue(w.get(0).getFormattedMessage().contains("JUNK LINE {not json"), w.get(0)::getFormattedMessage);
    assertEquals(null, w.get(0).getThrowableProxy(), "no stack trace");
  }

  @Test
  void aVeryLongNonJsonLine_isLoggedCutToOneBoundedLine() {
    String skipped = IsolatedStdioTransport.shown("x".repeat(10_000) + "\r\u0007tail");
    assertTrue(skipped.length() <= IsolatedStdioTransport.SKIPPED_LINE_CHARS + 40, skipped);
    assertFalse(skipped.contains("\r") || skipped.contains("\u0007"), skipped);
  }
}
