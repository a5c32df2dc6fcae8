package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.observability.Telemetry;
import cp.tools.ToolResult;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: {@code /metrics} served by {@link MetricsServer} over a real socket, scraped after two
 * turns (each: classify, a tool call, the answer) against a mock Anthropic API with a canary key.
 * Every counter moved by what the ledgers recorded; the SDK's {@code temporal_*} metrics are there;
 * no label carries a session id, the key or the user's text.
 */
class WorkerMetricsTest {
  private final String hex = HexFormat.of().formatHex(SecureRandom.getSeed(12));
  private final String canaryKey = "sk-ant-canary-" + hex;

  @TempDir Path home;
  @StartStop final MockWebServer anthropic = new MockWebServer();


  @Test
  void aScrapeAfterTwoTurns_showsTheCountersMovedByWhatTheLedgersRecorded() throws Exception {
    anthropic.setDispatcher(new TurnTracingTest.MessagesApi());
    Map<String, String> env = new HashMap<>(PlaneFixture.env(home, Map.of("CP_PROVIDER", "anthropic",
        "ANTHROPIC_API_KEY", canaryKey, "ANTHROPIC_BASE_URL", anthropic.url("/").toString(),
        // One dollar per input token, two per output token: the cost counter is then exact. The model
        // is in the shipped price table, so its price comes from CP_PRICES_FILE (issue 23).
        cp.gateway.PriceTable.PRICES_FILE, java.nio.file.Files.writeString(home.resolve("prices.json"),
            "{\"claude-sonnet-4-5\": {\"input_per_mtok\": 1000000, \"output_per_mtok\": 2000000}}").toString())));
    PrometheusMeterRegistry registry = MetricsRegistries.prometheus();
    Telemetry telemetry = Telemetry.fromEnv(env, registry);
    String sid;
    String before;
    String after;
    List<LedgerEntry> exchanges;
    long hotAppendsAtLeast;
    try (telemetry; MetricsServer server = MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry,
        () -> new cp.worker.Readiness.Status(true, java.util.List.of()));
        PlaneFixture plane = PlaneFixture.start(env, ProcessServices.of(telemetry),
            deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("cp-core 1.0.0\ncp-gateway 1.0.0"))) {
      URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + MetricsServer.PATH);
      sid = plane.client.startSession("ADMIN");
      before = scrape(uri);
      for (String text : List.of("which packages " + hex + "?", "and now " + hex + "?")) {
        TurnResult r = plane.client.turn(sid, text);
        assertEquals(TurnOutcome.SUCCESS, r.outcome(), r.response());
      }
      Thread.sleep(TemporalTelemetry.REPORT_EVERY.toMillis() * 2); // the SDK's metrics are pushed every second
      after = scrape(uri);
      exchanges = plane.runtime.ledgers().hot().bySession(sid).stream()
          .filter(e -> e.eventType().equals("EXCHANGE")).toList();
      hotAppendsAtLeast = plane.runtime.ledgers().hot().size();

      HttpResponse<String> wrong = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri.resolve("/other")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(404, wrong.statusCode());
    }

    assertEquals(6, exchanges.size(), "two turns of three round trips");
    long in = exchanges.stream().mapToLong(e -> e.meta("input_tokens").asLong()).sum();
    long out = exchanges.stream().mapToLong(e -> e.meta("output_tokens").asLong()).sum();
    assertTrue(in > 0 && out > 0);

    String turns = "cp_turns_total{agent_class=\"ADMIN\",outcome=\"success\"}";
    assertEquals(2.0, value(after, turns) - value(before, turns), after);
    assertEquals(2.0, value(after, "cp_turn_latency_seconds_count{agent_class=\"ADMIN\",outcome=\"success\"}"));
    assertTrue(after.contains("cp_turn_latency_seconds_bucket{agent_class=\"ADMIN\",outcome=\"success\",le=\""),
        "the turn latency is a histogram");
    String llm = "{model=\"claude-sonnet-4-5\",outcome=\"success\",provider=\"anthropic\"}";
    assertEquals(6.0, value(after, "cp_llm_round_trips_total" + llm));
    assertEquals(6.0, value(after, "cp_llm_latency_seconds_count" + llm));
    assertEquals((double) in, value(after, "cp_llm_tokens_total{model=\"claude-sonnet-4-5\",provider=\"anthropic\",type=\"input\"}"));
    assertEquals((double) out, value(after, "cp_llm_tokens_total{model=\"claude-sonnet-4-5\",provider=\"anthropic\",type=\"output\"}"));
    assertEquals((double) (in + 2 * out), value(after, "cp_llm_cost_usd_total{model=\"claude-sonnet-4-5\",provider=\"anthropic\"}"),
        1e-6);
    // Issue 23: the same dollars by tenant, agent class and model.
    assertEquals((double) (in + 2 * out), value(after,
        "cp_spend_usd_total{agent_class=\"ADMIN\",model=\"claude-sonnet-4-5\",tenant=\"default\"}"), 1e-6);
    assertEquals(2.0, value(after, "cp_tool_calls_total{origin=\"builtin\",status=\"ok\",tool=\"list_packages\"}"));
    assertEquals(0.0, value(after, "cp_circuit_breaker_state{provider=\"anthropic\"}"));
    assertTrue(value(after, "cp_ledger_append_seconds_count{store=\"file\",tier=\"hot\"}") >= hotAppendsAtLeast - 0.5,
        "every HOT entry was an append");
    assertTrue(value(after, "cp_ledger_append_seconds_count{store=\"file\",tier=\"ho1\"}") > 0);
    assertTrue(value(after, "cp_ledger_append_seconds_count{store=\"file\",tier=\"ho2\"}") > 0);
    assertTrue(after.lines().anyMatch(l -> l.startsWith("temporal_")), "the SDK's own metrics:\n" + after);
    assertTrue(after.lines().anyMatch(l -> l.startsWith("temporal_workflow_completed_total")
        || l.startsWith("temporal_activity_execution_latency_seconds")), "worker metrics:\n" + after);
    assertEquals(0.0, value(after, "cp_quality_gate_rejections_total{agent_class=\"ADMIN\"}"));
    assertEquals(0.0, value(after, "cp_degradations_total{agent_class=\"ADMIN\"}"));

    // Issue 20 §3: the GenAI conventions' metrics, the JVM's and the process's, Temporal's labels bounded.
    assertTrue(value(after, "gen_ai_client_token_usage_sum{gen_ai_operation_name=\"chat\",gen_ai_provider_name="
        + "\"anthropic\",gen_ai_response_model=\"claude-sonnet-4-5\",gen_ai_token_type=\"input\"}") == (double) in, after);
    assertTrue(after.contains("gen_ai_client_operation_duration_seconds_bucket{"), after);
    assertTrue(after.lines().anyMatch(l -> l.startsWith("jvm_memory_used_bytes{")), "jvm_ metrics");
    assertTrue(after.lines().anyMatch(l -> l.startsWith("process_cpu_usage") || l.startsWith("process_uptime_seconds")),
        "process_ metrics");
    for (String line : after.lines().filter(l -> l.startsWith("temporal_")).toList()) {
      int open = line.indexOf('{');
      if (open > 0) {
        String labels = line.substring(open + 1, line.indexOf('}'));
        for (String kv : labels.split(",(?=[a-z_]+=\")")) {
          String key = kv.substring(0, kv.indexOf('='));
          assertTrue(MetricsRegistries.TEMPORAL_TAGS.contains(key) || key.equals("le") || key.equals("quantile"),
              "a bounded label: " + line);
          assertFalse(kv.endsWith("=\"none\""), "no label that does not apply: " + line);
        }
      }
    }
    assertFalse(after.contains(sid.substring(4)), "no label carries the session id");
    assertFalse(after.contains(canaryKey) || after.contains(hex), "no key and no user text in the metrics");
  }

  static String scrape(URI uri) throws Exception {
    HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()
        .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
    return r.body();
  }

  /** The sample {@code series} (name with its labels, as exposed) has in {@code text}; 0 when absent. */
  static double value(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
  }
}
