package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.ControlPlaneClient;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.TurnOutcome;
import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, as a person runs it, in separate JVMs: {@code OTEL_TRACES_EXPORTER=logging-otlp cpctl
 * chat} prints OTLP JSON spans with {@code gen_ai.*} attributes and ledger entry ids on stderr and
 * nothing of them on stdout; {@code cpctl worker --metrics-port P} serves {@code /metrics} with
 * {@code temporal_*} and {@code cp_*} series; a bad {@code --metrics-port} is refused.
 */
class ObservabilityCommandsTest {
  @TempDir Path home;
  @TempDir Path procs;

  @Test
  void chatWithLoggingOtlp_printsOtlpJsonSpansOnStderr_withGenAiAttributesAndLedgerIds_andAStdoutFreeOfThem()
      throws Exception {
    Map<String, String> env = CliHarness.env(home);
    env.put("OTEL_TRACES_EXPORTER", "logging-otlp");
    env.put("OTEL_SERVICE_NAME", "cp");
    String question = "what packages are installed?";
    CpctlProcesses.Cli chat;
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      chat = p.startInteractive("chat", env, "chat");
      chat.type(question + "\n");
      chat.process.getOutputStream().close();
      assertEquals(0, chat.awaitExit(), chat.describe());
    }
    String out = chat.stdout();
    assertTrue(out.contains("packages are installed"), out);
    assertFalse(out.contains("traceId") || out.contains("gen_ai."), "no span on stdout:\n" + out);

    List<JsonNode> spans = new ArrayList<>();
    for (String line : chat.stderr().lines().toList()) {
      int at = line.indexOf("{\"resource\"");
      if (at >= 0) {
        JsonNode rs = Json.parse(line.substring(at));
        assertEquals("cp", serviceName(rs));
        rs.path("scopeSpans").forEach(ss -> ss.path("spans").forEach(spans::add));
      }
    }
    assertFalse(spans.isEmpty(), "OTLP JSON spans on stderr:\n" + chat.stderr());
    List<JsonNode> chats = spans.stream().filter(s -> "chat".equals(attr(s, "gen_ai.operation.name"))).toList();
    assertEquals(3, chats.size(), "classify, the tool call's round and the answer");
    Set<String> ids = new HashSet<>();
    try (Ledgers ledgers = Ledgers.open(home)) {
      ledgers.hot().byEventType("EXCHANGE").forEach(e -> ids.add(e.entryId() + " " + e.hash()));
    }
    for (JsonNode c : chats) {
      for (String k : List.of("gen_ai.provider.name", "gen_ai.response.model", "gen_ai.request.max_tokens",
          "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "cp.session_id", "cp.wo_id")) {
        assertTrue(attr(c, k) != null, k + " on " + c);
      }
      assertTrue(ids.contains(attr(c, "cp.ledger.entry_id") + " " + attr(c, "cp.ledger.hash")),
          "the span's entry id and hash are an EXCHANGE's: " + c);
    }
    assertTrue(spans.stream().anyMatch(s -> s.path("name").asText().equals("execute_tool list_packages")));
    assertFalse(chat.stderr().contains(question), "no user text in the spans");
  }

  @Test
  void workerWithMetricsPort_servesTemporalAndPlaneMetrics() throws Exception {
    int port = CpctlProcesses.freePort();
    int metricsPort = CpctlProcesses.freePort();
    try (EmbeddedTemporal server = EmbeddedTemporal.onPort(port);
        CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
      Map<String, String> env = CliHarness.env(home);
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      CpctlProcesses.Cli worker = p.start("worker", env, "worker", "--metrics-port", String.valueOf(metricsPort));
      worker.awaitOutput("metrics on http://127.0.0.1:" + metricsPort + "/metrics");
      worker.awaitOutput("worker polling");
      PlaneConfig config = PlaneConfig.fromEnv(env);
      try (TemporalConnection conn = TemporalConnection.open(config)) {
        ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
            List.of("ADMIN", "RESIDENT"), config.worker().continueAsNewAfterTurns());
        String sid = client.startSession("ADMIN");
        for (int i = 0; i < 2; i++) {
          assertEquals(TurnOutcome.SUCCESS, client.turn(sid, "what packages are installed?").outcome(),
              worker.describe());
        }
      }
      URI uri = URI.create("http://127.0.0.1:" + metricsPort + "/metrics");
      String text = "";
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (System.nanoTime() < deadline && !text.contains("temporal_workflow_completed")) {
        text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        Thread.sleep(200);
      }
      assertTrue(text.contains("cp_turns_total{agent_class=\"ADMIN\",outcome=\"success\"} 2.0"), text);
      assertTrue(text.lines().anyMatch(l -> l.startsWith("temporal_")), text);
      assertTrue(text.lines().anyMatch(l -> l.startsWith("cp_llm_round_trips_total{")), text);
      worker.stop();
    }
  }

  @Test
  void aMetricsPortOutOfRange_isRefusedNamingTheFlag() {
    Map<String, String> env = CliHarness.env(home);
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:1");
    CpctlRunner.Result r = CpctlRunner.run(env, "worker", "--metrics-port", "70000");
    assertEquals(Cpctl.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("--metrics-port 70000"), r.err());
  }

  private static String serviceName(JsonNode resourceSpans) {
    for (JsonNode a : resourceSpans.path("resource").path("attributes")) {
      if (a.path("key").asText().equals("service.name")) {
        return a.path("value").path("stringValue").asText();
      }
    }
    return null;
  }

  /** An OTLP JSON attribute's value as text (string, int or double), or null. */
  private static String attr(JsonNode span, String key) {
    for (JsonNode a : span.path("attributes")) {
      if (a.path("key").asText().equals(key)) {
        JsonNode v = a.path("value");
        JsonNode first = v.elements().hasNext() ? v.elements().next() : null;
        return first == null ? null : first.asText();
      }
    }
    return null;
  }

}
