package cp.bench;

import cp.contracts.AgentConfig;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.contracts.RenderedPrompt;
import cp.gateway.Gateway;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import cp.model.ContractIds;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * P2: one {@code Gateway.route()} (validation, budget, circuit breaker, the provider's request
 * mapping and HTTP call, output validation, the EXCHANGE write) ÷ one raw OkHttp POST of the
 * same request bytes to the same fake provider, at latency L.
 *
 * <p>The closing variant runs the same against a provider that closes every connection after
 * its response (an HTTP/1.0 server, a proxy): every route() must still succeed on its first
 * attempt, with no error EXCHANGE, on a fresh connection. The raw call there is OkHttp with its
 * defaults, which sends the request on the dead pooled connection and then again on a new one.
 */
final class GatewayBench {
  static final double P50_TARGET = 1.05;
  static final MediaType JSON = MediaType.get("application/json");
  /** The closing variant's row (P2c in the README). */
  static final String CLOSING_WHAT = "P2c gateway route() p50 ÷ raw OkHttp call, server closes after each response";

  private final PlaneRuntime runtime;
  private final FakeAnthropicServer fake;
  private final BenchOptions o;
  private final OkHttpClient raw = new OkHttpClient();
  private final AtomicLong activities = new AtomicLong();
  private final PromptRequest template;
  private final boolean closing;

  GatewayBench(PlaneRuntime runtime, FakeAnthropicServer fake, BenchOptions o) {
    this(runtime, fake, o, false);
  }

  /** With {@code closing}, {@code fake} closes every connection after its response. */
  GatewayBench(PlaneRuntime runtime, FakeAnthropicServer fake, BenchOptions o, boolean closing) {
    this.runtime = runtime;
    this.fake = fake;
    this.o = o;
    this.closing = closing;
    this.template = classifyRequest(runtime);
  }

  /** The request HO1 makes for a classify work order of a short question. */
  static PromptRequest classifyRequest(PlaneRuntime runtime) {
    PromptContract contract = runtime.catalog().contract(ContractIds.CLASSIFY);
    AgentConfig agent = runtime.catalog().agent(TurnLatencyBench.AGENT);
    RenderedPrompt prompt = new PromptRenderer().render(runtime.catalog().promptPack(contract.promptPackId()),
        Json.object().put("user_input", TurnTexts.text(1)), agent);
    return PromptRequest.builder()
        .contractId(contract.contractId()).promptPackId(contract.promptPackId())
        .agentId(agent.agentId()).agentClass(agent.agentClass()).frameworkId(agent.frameworkId())
        .workOrderId("WO-0000beef-0001-01").sessionId("SES-0000beef").tier("ho1")
        .system(prompt.system()).messages(List.of(Message.user(prompt.user())))
        .maxTokens(contract.boundary().maxTokens()).temperature(contract.boundary().temperature())
        .model(runtime.config().provider().settings().orElseThrow().defaultModel())
        .structuredOutput(contract.structuredOutput()).outputSchema(contract.outputSchema())
        .tokenBudgetRemaining(32_000L)
        .build();
  }

  List<Measure> run() throws Exception {
    Gateway gateway = runtime.gateway();
    for (int i = 0; i < Math.max(1, o.warmupTurns()) * 5; i++) {
      route(gateway);
      rawCall(fake.lastBody());
    }
    byte[] body = fake.lastBody();
    Interleaved.Result r = Interleaved.run(o.rounds(), round -> times(() -> route(gateway)),
        round -> times(() -> rawCall(body)));
    double p50 = r.medianRatio();
    String detail = String.format(Locale.ROOT, "L=%d ms, %d rounds x %d calls a side; route() p50 %.2f ms,"
        + " raw OkHttp p50 %.2f ms: the gateway adds %.2f ms (HOT ledger durability %s)",
        o.gatewayLatency().toMillis(), o.rounds(), o.gatewayCalls(), r.medianA(), r.medianB(),
        r.medianA() - r.medianB(), durability());
    if (closing) {
      return List.of(Measure.target(Measure.Id.P2, CLOSING_WHAT, Measure.ratio(p50), "≤ " + P50_TARGET,
          p50 <= P50_TARGET, detail + "; every route() succeeded on its first attempt, no error EXCHANGE"));
    }
    return List.of(Measure.target(Measure.Id.P2, "gateway route() p50 ÷ raw OkHttp call", Measure.ratio(p50),
        "≤ " + P50_TARGET, p50 <= P50_TARGET, detail));
  }

  private String durability() {
    return runtime.config().ledgers().options(cp.ledger.Tier.HOT).durability().name().toLowerCase(Locale.ROOT);
  }

  private interface Call {
    void run() throws IOException;
  }

  private List<Double> times(Call call) throws IOException {
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < o.gatewayCalls(); i++) {
      long start = System.nanoTime();
      call.run();
      ms.add(Stats.millisSince(start));
    }
    return ms;
  }

  /** A route() under a fresh activity identity, as each LLM round has. */
  private void route(Gateway gateway) {
    PromptRequest req = template.toBuilder().workflowId("bench-gateway").runId("run")
        .activityId(String.valueOf(activities.incrementAndGet())).attempt(1).build();
    PromptResponse resp = gateway.route(req);
    if (resp.outcome() != RouteOutcome.SUCCESS || Boolean.FALSE.equals(resp.outputValid())) {
      throw new IllegalStateException("benchmark gateway call did not succeed: " + resp.errorMessage());
    }
  }

  private void rawCall(byte[] body) throws IOException {
    Request request = new Request.Builder().url(fake.messagesUrl().toString())
        .header("x-api-key", BenchEnv.FAKE_KEY).header("anthropic-version", "2023-06-01")
        .post(RequestBody.create(body, JSON)).build();
    try (Response response = raw.newCall(request).execute()) {
      if (!response.isSuccessful() || response.body().string().isEmpty()) {
        throw new IOException("raw call failed: HTTP " + response.code());
      }
    }
  }
}
