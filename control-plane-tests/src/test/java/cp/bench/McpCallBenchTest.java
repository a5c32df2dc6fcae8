package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.tools.mcp.ReferenceServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * P7 runs against the real reference server the MCP tests install and reports a ratio with both
 * medians behind it. Nothing about speed: the benchmark measures that, side by side in one run.
 */
class McpCallBenchTest {
  @TempDir Path dir;

  @Test
  void p7_callsTheToolThroughThePlaneAndDirectly_andReportsTheRatio() throws Exception {
    BenchOptions smoke = BenchOptions.smoke(dir.resolve("home"), dir.resolve("out.md"), List.of());
    BenchOptions p7 = new BenchOptions(Duration.ofMillis(50), smoke.gatewayLatency(), 1, smoke.turnsPerRound(),
        smoke.warmupTurns(), smoke.gatewayCalls(), smoke.sessions(), smoke.sessionTurns(), smoke.throughputRounds(),
        smoke.ledgerAppends(), smoke.ledgerTurns(), smoke.crashRuns(), smoke.heapTurns(), false, smoke.chatTurns(),
        smoke.chatRuns(), smoke.spendCalls(), smoke.cpctl(), Set.of(Measure.Id.P7), smoke.home(), smoke.out());

    BenchReport report = Bench.run(p7, Map.of(McpReferenceServer.DIR_VARIABLE, ReferenceServers.root().toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    assertEquals(1, report.measures().size(), report.markdown());
    Measure m = report.measures().get(0);
    assertEquals(Measure.Id.P7, m.id());
    assertTrue(m.value().matches("\\d+\\.\\d{3}x"), m.value());
    assertTrue(m.detail().matches("\\d+\\.\\d ms ÷ \\d+\\.\\d ms .*trigger-long-running-operation over stdio.*"),
        m.detail());
  }
}
