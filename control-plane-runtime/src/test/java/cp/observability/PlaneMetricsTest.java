package cp.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Issue 20 §3: the GenAI conventions' client metrics as Prometheus shows them, beside ours. */
class PlaneMetricsTest {
  @Test
  void aChatRoundTrip_isCountedInTheGenAiHistograms_withTheConventionsLabels_errorTypeOnlyOnFailures() {
    PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PlaneMetrics m = new PlaneMetrics(r);
    m.llmRound("anthropic", "claude-x", "success", TimeUnit.MILLISECONDS.toNanos(300), 1200, 40, 0.01);
    m.llmRound("anthropic", "claude-x", "rate_limited", TimeUnit.MILLISECONDS.toNanos(50), 0, 0, 0);
    String text = r.scrape();
    String ok = "gen_ai_operation_name=\"chat\",gen_ai_provider_name=\"anthropic\",gen_ai_response_model=\"claude-x\"";
    assertTrue(text.contains("gen_ai_client_token_usage_sum{" + ok + ",gen_ai_token_type=\"input\"} 1200.0"), text);
    assertTrue(text.contains("gen_ai_client_token_usage_sum{" + ok + ",gen_ai_token_type=\"output\"} 40.0"), text);
    assertTrue(text.contains("gen_ai_client_token_usage_bucket{" + ok + ",gen_ai_token_type=\"input\",le=\"4096.0\"} 1"),
        text);
    assertTrue(text.contains("gen_ai_client_operation_duration_seconds_count{error_type=\"rate_limited\"," + ok + "} 1"),
        text);
    assertTrue(text.contains("gen_ai_client_operation_duration_seconds_count{error_type=\"\"," + ok + "} 1")
        || text.contains("gen_ai_client_operation_duration_seconds_count{" + ok + "} 1"), text);
    assertEquals(1, text.lines().filter(l -> l.startsWith("gen_ai_client_token_usage_count{")
        && l.contains("output")).count(), "a failed round trip counts no tokens");
  }

  @Test
  void turnWorkAndApprovalWait_areSeparateHistograms() {
    PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PlaneMetrics m = new PlaneMetrics(r);
    m.turn("ADMIN", "success", TimeUnit.SECONDS.toNanos(65));
    m.turnWork("ADMIN", "success", TimeUnit.SECONDS.toNanos(5));
    m.approvalWait("ADMIN", "granted", TimeUnit.SECONDS.toNanos(60));
    String text = r.scrape();
    assertTrue(text.contains("cp_turn_latency_seconds_sum{agent_class=\"ADMIN\",outcome=\"success\"} 65.0"), text);
    assertTrue(text.contains("cp_turn_work_latency_seconds_sum{agent_class=\"ADMIN\",outcome=\"success\"} 5.0"), text);
    assertTrue(text.contains("cp_approval_wait_seconds_sum{agent_class=\"ADMIN\",decision=\"granted\"} 60.0"), text);
  }
}
