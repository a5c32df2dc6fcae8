package cp.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The plane's own metrics, in Micrometer's dotted names (the Prometheus registry renders
 * {@code cp.turns} as {@code cp_turns_total}, a timer {@code cp.turn.latency} as
 * {@code cp_turn_latency_seconds_bucket/_count/_sum}). Every call is a no-op without a registry.
 *
 * <p>Labels are bounded: agent classes, outcomes, provider ids, model ids, tool ids the agent
 * declares (any other name a model invents is {@link #OTHER}), ledger tiers and stores. No label
 * carries a session id, a work-order id or any user text.
 */
public final class PlaneMetrics {
  public static final String TURNS = "cp.turns";
  public static final String TURN_LATENCY = "cp.turn.latency";
  public static final String LLM_ROUND_TRIPS = "cp.llm.round.trips";
  public static final String LLM_LATENCY = "cp.llm.latency";
  public static final String LLM_TOKENS = "cp.llm.tokens";
  public static final String LLM_COST = "cp.llm.cost.usd";
  public static final String GATE_REJECTIONS = "cp.quality.gate.rejections";
  public static final String GATE_ESCALATIONS = "cp.quality.gate.escalations";
  public static final String DEGRADATIONS = "cp.degradations";
  public static final String BREAKER_STATE = "cp.circuit.breaker.state";
  public static final String LEDGER_APPEND = "cp.ledger.append";
  public static final String TOOL_CALLS = "cp.tool.calls";
  /** The label of a value outside the bounded set (a tool name no agent declares). */
  public static final String OTHER = "other";

  /**
   * Latency histogram buckets shared by turns and LLM round trips: from a cached reply (a few ms)
   * to a long tool-using turn (minutes); Prometheus' histogram_quantile interpolates between them.
   */
  static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
      Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
      Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300)};
  /** Ledger appends: from a page-cache write (tens of µs) to an fsync on a slow disk (tens of ms). */
  static final Duration[] APPEND_BUCKETS = {Duration.ofNanos(50_000), Duration.ofNanos(100_000),
      Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
      Duration.ofMillis(100), Duration.ofMillis(250)};

  private final MeterRegistry registry;

  PlaneMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public boolean enabled() {
    return registry != null;
  }

  /** The registry, or null without metrics. */
  public MeterRegistry registry() {
    return registry;
  }

  /** A turn answered to the user, by agent class and outcome, with its latency. */
  public void turn(String agentClass, String outcome, long nanos) {
    if (registry == null) {
      return;
    }
    Counter.builder(TURNS).description("Turns answered, by agent class and outcome")
        .tags("agent_class", label(agentClass), "outcome", label(outcome)).register(registry).increment();
    Timer.builder(TURN_LATENCY).description("Turn latency from the turn's start to its answer")
        .tags("agent_class", label(agentClass), "outcome", label(outcome))
        .serviceLevelObjectives(LATENCY_BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * One LLM round trip the gateway made (not one it answered from the ledger), by provider, model
   * and outcome ({@code success} or the failure code), with its tokens and cost.
   */
  public void llmRound(String provider, String model, String outcome, long nanos, long inputTokens,
      long outputTokens, double costUsd) {
    if (registry == null) {
      return;
    }
    String p = label(provider);
    String m = label(model);
    Counter.builder(LLM_ROUND_TRIPS).description("LLM round trips, by provider, model and outcome")
        .tags("provider", p, "model", m, "outcome", label(outcome)).register(registry).increment();
    Timer.builder(LLM_LATENCY).description("LLM round-trip latency")
        .tags("provider", p, "model", m, "outcome", label(outcome))
        .serviceLevelObjectives(LATENCY_BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    if (inputTokens > 0) {
      Counter.builder(LLM_TOKENS).description("LLM tokens, by provider, model and type (input, output)")
          .tags("provider", p, "model", m, "type", "input").register(registry).increment(inputTokens);
    }
    if (outputTokens > 0) {
      Counter.builder(LLM_TOKENS).description("LLM tokens, by provider, model and type (input, output)")
          .tags("provider", p, "model", m, "type", "output").register(registry).increment(outputTokens);
    }
    if (costUsd > 0) {
      Counter.builder(LLM_COST).description("LLM cost in US dollars (CP_PRICE_* pricing)")
          .tags("provider", p, "model", m).register(registry).increment(costUsd);
    }
  }

  /** A quality-gate verdict that rejected an answer. */
  public void gateRejected(String agentClass) {
    if (registry != null) {
      Counter.builder(GATE_REJECTIONS).description("Answers the quality gate rejected")
          .tags("agent_class", label(agentClass)).register(registry).increment();
    }
  }

  /** A turn escalated because the quality gate rejected every attempt. */
  public void gateEscalated(String agentClass) {
    if (registry != null) {
      Counter.builder(GATE_ESCALATIONS).description("Turns escalated after the quality gate rejected every attempt")
          .tags("agent_class", label(agentClass)).register(registry).increment();
    }
  }

  /** A turn answered by the degraded path (a DEGRADATION record). */
  public void degraded(String agentClass) {
    if (registry != null) {
      Counter.builder(DEGRADATIONS).description("Turns answered by the degraded path")
          .tags("agent_class", label(agentClass)).register(registry).increment();
    }
  }

  /** One tool call, by tool (a declared tool id, else {@link #OTHER}) and status (ok, error, refused). */
  public void toolCall(String tool, String status) {
    if (registry != null) {
      Counter.builder(TOOL_CALLS).description("Tool calls, by tool and status")
          .tags("tool", label(tool), "status", label(status)).register(registry).increment();
    }
  }

  /** One ledger append, by tier (hot, ho1, ho2, ho3) and store (file). */
  public void ledgerAppend(String tier, String store, long nanos) {
    if (registry != null) {
      Timer.builder(LEDGER_APPEND).description("Ledger append latency, by tier and store")
          .tags("tier", label(tier), "store", label(store)).serviceLevelObjectives(APPEND_BUCKETS)
          .register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The circuit breaker of {@code provider} as a gauge: 0 closed, 1 half-open, 2 open. The
   * supplier is read at each scrape; registering the same provider again keeps the first.
   */
  public void breaker(String provider, Supplier<Number> state) {
    if (registry != null) {
      Gauge.builder(BREAKER_STATE, state).description("Circuit breaker state per provider: 0 closed, 1 half-open, 2 open")
          .tags("provider", label(provider)).strongReference(true).register(registry);
    }
  }

  private static String label(String v) {
    return v == null || v.isBlank() ? "unknown" : v;
  }
}
