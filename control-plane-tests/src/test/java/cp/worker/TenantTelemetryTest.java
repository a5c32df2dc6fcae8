package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.observability.PlaneMetrics;
import cp.observability.PlaneSpans;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import cp.tools.ToolResult;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (h10's gap): the tenant in telemetry. The turn's {@code invoke_agent} span and every
 * EXCHANGE's {@code chat} span carry {@code cp.tenant}; the worker's metrics have
 * {@code cp_tenant_budget_remaining_usd{tenant,period}}, the cap less what the shared counters hold
 * spent and reserved, read at each scrape. Before, neither span named the tenant and there was no
 * such gauge.
 */
class TenantTelemetryTest {
  static final double DAILY_USD = 50.0;
  static final double MONTHLY_USD = 100.0;

  @TempDir Path home;

  @Test
  void theTurnsSpansNameTheTenant_andTheGaugeShowsWhatItsCapsHaveLeft() throws Exception {
    Path prices = Files.writeString(home.resolve("prices.json"),
        "{\"offline-rules-1\": {\"input_per_mtok\": 1000, \"output_per_mtok\": 3000}}");
    Path tenants = Files.writeString(home.resolve("tenants.json"), "{\"tenants\": {\"acme\": {\"daily_usd\": "
        + DAILY_USD + ", \"monthly_usd\": " + MONTHLY_USD + "}}}");
    Map<String, String> env = PlaneFixture.env(home, Map.of("CP_PRICES_FILE", prices.toString(), "CP_TENANTS_FILE",
        tenants.toString()));
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Telemetry telemetry = Telemetry.exportingTo(spans, registry, false, SecretMasker.fromEnv(env));
        PlaneFixture plane = PlaneFixture.start(env, ProcessServices.of(telemetry),
            deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String sid = plane.client.startSession("ADMIN", "acme");
      assertEquals("success", plane.client.turn(sid, "hello").outcome());

      List<SpanData> all = spans.getFinishedSpanItems();
      List<SpanData> agent = all.stream().filter(s -> s.getName().startsWith(PlaneSpans.INVOKE_AGENT)).toList();
      assertEquals(1, agent.size(), all::toString);
      assertEquals("acme", agent.get(0).getAttributes().get(PlaneSpans.TENANT));
      List<SpanData> chats = all.stream().filter(s -> s.getName().startsWith(PlaneSpans.CHAT)).toList();
      assertFalse(chats.isEmpty(), "the turn's model calls have chat spans: " + all);
      chats.forEach(c -> assertEquals("acme", c.getAttributes().get(PlaneSpans.TENANT), c::toString));

      List<LedgerEntry> exchanges = plane.runtime.ledgers().hot().bySession(sid).stream()
          .filter(e -> e.eventType().equals("EXCHANGE")).toList();
      double spent = exchanges.stream().mapToDouble(e -> e.meta("cost_usd").asDouble()).sum();
      assertTrue(spent > 0, "priced calls");
      assertEquals(DAILY_USD - spent, gauge(registry, "day"), 1e-9);
      assertEquals(MONTHLY_USD - spent, gauge(registry, "month"), 1e-9);

      // Read at each scrape from the shared counters: another worker's spend shows at once.
      java.time.Instant now = java.time.Instant.now();
      try (var other = new cp.gateway.JsonlTenantCounters(home)) {
        var caps = new cp.gateway.TenantCaps.Caps(java.util.Optional.of(DAILY_USD), java.util.Optional.empty());
        assertTrue(other.reserve("acme", caps, "test/other-worker", 1.5, now, now.plusSeconds(600)).granted());
      }
      assertEquals(DAILY_USD - spent - 1.5, gauge(registry, "day"), 1e-9, "held by another worker's call");
    }
  }

  /**
   * A turn that reaches the session in the same workflow task as its start (update-with-start, or a
   * turn sent right after the start) runs before the session has its input, and a foreign client
   * sets no search attributes: its invoke_agent span still names the agent class and the tenant,
   * learnt by the turn's end (once this showed up in a full run as a span without its tenant).
   */
  @Test
  void aTurnSentWithTheStart_stillHasItsTenantAndAgentOnItsSpan() throws Exception {
    Map<String, String> env = PlaneFixture.env(home, Map.of());
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    try (Telemetry telemetry = Telemetry.exportingTo(spans, new SimpleMeterRegistry(), false,
            SecretMasker.fromEnv(env));
        PlaneFixture plane = PlaneFixture.start(env, ProcessServices.of(telemetry),
            deps -> (agent, session, tool, args, allowed) -> ToolResult.ok("none"))) {
      String sid = "SES-7e4a0c01";
      cp.workflows.SessionWorkflow stub = plane.connection.client().newWorkflowStub(cp.workflows.SessionWorkflow.class,
          io.temporal.client.WorkflowOptions.newBuilder().setTaskQueue(plane.config.worker().taskQueue())
              .setWorkflowId(sid).setWorkflowIdConflictPolicy(
                  io.temporal.api.enums.v1.WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL).build());
      var start = new io.temporal.client.WithStartWorkflowOperation<>(stub::run,
          new cp.model.SessionInput(sid, "ADMIN", null, 0).withTenant("acme"));
      cp.model.TurnResult r = io.temporal.client.WorkflowClient.executeUpdateWithStart(stub::turn,
          new cp.model.TurnRequest("hello"), io.temporal.client.UpdateOptions.<cp.model.TurnResult>newBuilder()
              .setWaitForStage(io.temporal.client.WorkflowUpdateStage.COMPLETED).build(), start);
      assertEquals("success", r.outcome());

      List<SpanData> agent = spans.getFinishedSpanItems().stream()
          .filter(s -> s.getName().startsWith(PlaneSpans.INVOKE_AGENT)).toList();
      assertEquals(1, agent.size(), spans.getFinishedSpanItems()::toString);
      assertEquals("acme", agent.get(0).getAttributes().get(PlaneSpans.TENANT), agent.get(0)::toString);
      assertEquals(PlaneSpans.INVOKE_AGENT + " ADMIN", agent.get(0).getName());
      assertEquals("ADMIN", agent.get(0).getAttributes().get(PlaneSpans.AGENT_CLASS));
    }
  }

  private static double gauge(SimpleMeterRegistry registry, String period) {
    return registry.get(PlaneMetrics.TENANT_BUDGET_REMAINING).tag("tenant", "acme").tag("period", period).gauge()
        .value();
  }
}
