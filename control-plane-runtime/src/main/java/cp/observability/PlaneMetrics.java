package cp.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
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
  /** Issue 23: what answered calls cost, by tenant, agent class and model ({@code cp_spend_usd_total}). */
  public static final String SPEND = "cp.spend.usd";
  /** Issue 23: what a tenant's daily or monthly cap has left (Prometheus: cp_tenant_budget_remaining_usd). */
  public static final String TENANT_BUDGET_REMAINING = "cp.tenant.budget.remaining.usd";
  public static final String GATE_REJECTIONS = "cp.quality.gate.rejections";
  public static final String GATE_ESCALATIONS = "cp.quality.gate.escalations";
  public static final String DEGRADATIONS = "cp.degradations";
  public static final String BREAKER_STATE = "cp.circuit.breaker.state";
  public static final String LEDGER_APPEND = "cp.ledger.append";
  public static final String TOOL_CALLS = "cp.tool.calls";
  public static final String TURN_WORK_LATENCY = "cp.turn.work.latency";
  public static final String APPROVAL_WAIT = "cp.approval.wait";
  /** GenAI semantic conventions: tokens per operation, a histogram by token type ({@code gen_ai_client_token_usage}). */
  public static final String GENAI_TOKEN_USAGE = "gen_ai.client.token.usage";
  /** GenAI semantic conventions: operation duration ({@code gen_ai_client_operation_duration_seconds}). */
  public static final String GENAI_OPERATION_DURATION = "gen_ai.client.operation.duration";
  /** The label of a value outside the bounded set (a tool name no agent declares). */
  public static final String OTHER = "other";

  /**
   * Latency histogram buckets shared by turns and LLM round trips: from a cached reply (a few ms)
   * to a long tool-using turn (minutes); Prometheus' histogram_quantile interpolates between them.
   */
  private static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
      Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
      Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300)};
  /** The GenAI conventions' advised token-usage buckets: powers of 4 from 1 to 4^13 (67 M). */
  private static final double[] TOKEN_BUCKETS = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304,
      16777216, 67108864};
  /** The GenAI conventions' advised operation-duration buckets: 10 ms doubling to 82 s. */
  private static final Duration[] GENAI_DURATION_BUCKETS = {Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40),
      Duration.ofMillis(80), Duration.ofMillis(160), Duration.ofMillis(320), Duration.ofMillis(640),
      Duration.ofMillis(1280), Duration.ofMillis(2560), Duration.ofMillis(5120), Duration.ofMillis(10240),
      Duration.ofMillis(20480), Duration.ofMillis(40960), Duration.ofMillis(81920)};
  /** Approval waits: from a person at the terminal (seconds) to the default approval timeout (an hour) and beyond. */
  private static final Duration[] APPROVAL_BUCKETS = {Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(15),
      Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
      Duration.ofMinutes(30), Duration.ofHours(1), Duration.ofHours(4), Duration.ofHours(24)};
  /** Ledger appends: from a page-cache write (tens of µs) to an fsync on a slow disk (tens of ms). */
  private static final Duration[] APPEND_BUCKETS = {Duration.ofNanos(50_000), Duration.ofNanos(100_000),
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
   * A turn's own time, without what it waited for approvals (the turn workflow's time in workflow
   * clock, approval waits subtracted): the latency the plane is answerable for.
   */
  public void turnWork(String agentClass, String outcome, long nanos) {
    if (registry != null) {
      Timer.builder(TURN_WORK_LATENCY).description("Turn latency without approval waits (the turn workflow's own time)")
          .tags("agent_class", label(agentClass), "outcome", label(outcome))
          .serviceLevelObjectives(LATENCY_BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /** How long a tool call waited for a person's decision, by agent class and decision (granted, denied, timed_out). */
  public void approvalWait(String agentClass, String decision, long nanos) {
    if (registry != null) {
      Timer.builder(APPROVAL_WAIT).description("Time a tool call waited for its approval decision")
          .tags("agent_class", label(agentClass), "decision", label(decision))
          .serviceLevelObjectives(APPROVAL_BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * One LLM round trip the gateway made (not one it answered from the ledger), by provider, model
   * and outcome ({@code success} or the failure code), with its tokens and cost.
   */
  /** Issue 23: an answered call's cost in US dollars, for its session's tenant and agent class. */
  public void spend(String tenant, String agentClass, String model, double costUsd) {
    if (registry == null || costUsd <= 0) {
      return;
    }
    Counter.builder(SPEND).description("What answered model calls cost in US dollars, by tenant, agent class and model")
        .tags("tenant", label(tenant), "agent_class", label(agentClass), "model", label(model)).register(registry)
        .increment(costUsd);
  }

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
    genAi(p, m, outcome, nanos, inputTokens, outputTokens);
    if (costUsd > 0) {
      Counter.builder(LLM_COST).description("LLM cost in US dollars (the price table, CP_PRICES_FILE, CP_PRICE_*)")
          .tags("provider", p, "model", m).register(registry).increment(costUsd);
    }
  }

  /**
   * The GenAI semantic conventions' client metrics for one chat round trip: its duration (with
   * {@code error.type} when it failed) and, when it succeeded, its input and output tokens. Label
   * names are the conventions' ({@code gen_ai.operation.name} becomes {@code gen_ai_operation_name}).
   */
  private void genAi(String provider, String model, String outcome, long nanos, long inputTokens, long outputTokens) {
    boolean ok = "success".equals(outcome);
    Timer.builder(GENAI_OPERATION_DURATION).description("GenAI operation duration (semantic conventions)")
        .tags("gen_ai.operation.name", "chat", "gen_ai.provider.name", provider, "gen_ai.response.model", model,
            "error.type", ok ? "" : label(outcome))
        .serviceLevelObjectives(GENAI_DURATION_BUCKETS).register(registry).record(nanos, TimeUnit.NANOSECONDS);
    if (!ok) {
      return;
    }
    for (String type : new String[] {"input", "output"}) {
      DistributionSummary.builder(GENAI_TOKEN_USAGE).description("Tokens per GenAI operation (semantic conventions)")
          .tags("gen_ai.operation.name", "chat", "gen_ai.provider.name", provider,
              "gen_ai.response.model", model, "gen_ai.token.type", type)
          .serviceLevelObjectives(TOKEN_BUCKETS).register(registry)
          .record(type.equals("input") ? inputTokens : outputTokens);
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
    toolCall(tool, "builtin", status);
  }

  /** One tool call, by tool, origin (builtin, java, mcp:&lt;server&gt;: as many as the worker's servers) and status. */
  public void toolCall(String tool, String origin, String status) {
    if (registry != null) {
      Counter.builder(TOOL_CALLS).description("Tool calls, by tool, origin and status")
          .tags("tool", label(tool), "origin", label(origin), "status", label(status)).register(registry).increment();
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

  /**
   * Issue 23: what {@code tenant}'s cap for {@code period} ({@code day} or {@code month}) has left,
   * cap less spent less held by calls in flight, read from the shared counters at each scrape
   * (so it counts every worker's calls); registering the same tenant and period again keeps the first.
   */
  public void tenantBudgetRemaining(String tenant, String period, Supplier<Number> remaining) {
    if (registry != null) {
      Gauge.builder(TENANT_BUDGET_REMAINING, remaining)
          .description("What a tenant's daily or monthly dollar cap has left: cap less spent less held by calls in flight")
          .tags("tenant", label(tenant), "period", label(period)).strongReference(true).register(registry);
    }
  }

  private static String label(String v) {
    return v == null || v.isBlank() ? "unknown" : v;
  }
}
