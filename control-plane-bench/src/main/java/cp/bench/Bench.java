package cp.bench;

import cp.ledger.Tier;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the benchmark: starts the fake providers, the orchestrated plane and the plain-loop
 * baseline, runs each selected measure and returns the report (also written to the results file).
 */
public final class Bench {
  static final String QUEUE = "cp-bench";

  private final BenchOptions o;
  private final Map<String, String> callerEnv;
  private final PrintStream progress;
  private final List<Measure> measures = new ArrayList<>();
  private final Map<String, String> settings = new LinkedHashMap<>();

  private Bench(BenchOptions o, Map<String, String> callerEnv, PrintStream progress) {
    this.o = o;
    this.callerEnv = Map.copyOf(callerEnv);
    this.progress = progress;
  }

  /** Runs every measure {@code o} selects; {@code callerEnv} supplies CP_* settings (durability, timeouts). */
  public static BenchReport run(BenchOptions o, Map<String, String> callerEnv, PrintStream progress)
      throws Exception {
    return new Bench(o, callerEnv, progress).run();
  }

  private BenchReport run() throws Exception {
    long start = System.nanoTime();
    MachineInfo machine = MachineInfo.now();
    resetHome();
    settings.put("fake provider latency L", o.latency().toMillis() + " ms (P1, P3, P4, P6, P9), "
        + o.gatewayLatency().toMillis() + " ms (P2), " + o.latency().toMillis() + " ms (B7)" + (o.toolRound() ? "; synthesize uses one tool round" : ""));
    try (FakeAnthropicServer slow = FakeAnthropicServer.start(o.latency(), o.toolRound());
        FakeAnthropicServer fast = FakeAnthropicServer.start(o.gatewayLatency(), o.toolRound())) {
      if (o.runs(Measure.Id.P1) || o.runs(Measure.Id.P3) || o.runs(Measure.Id.P5) || o.runs(Measure.Id.P6)) {
        runOrchestrated(slow);
      }
      if (o.runs(Measure.Id.P2)) {
        runGateway(fast);
      }
      if (o.runs(Measure.Id.P4)) {
        step("P4: ledger appends per durability policy");
        step("P4: starting PostgreSQL for the PostgreSQL ledger store");
        try (BenchPostgres pg = BenchPostgres.start(callerEnv)) {
          measures.addAll(new LedgerBench(o.home().resolve("appends"), o.ledgerAppends(), pg).run());
          step("P4: turn latency with the ledgers ÷ without");
          measures.addAll(new LedgerTurnBench(callerEnv, slow, o.home().resolve("p4"), o, pg).run());
        }
      }
      if (o.runs(Measure.Id.P7)) {
        step("P7: an MCP tool call through the plane ÷ the same call with the MCP SDK");
        measures.addAll(new McpCallBench(callerEnv, o.home().resolve("mcp"), o).run());
      }
      if (o.runs(Measure.Id.P8)) {
        step("P8: a live turn's time to first token");
        measures.addAll(new LiveTurnBench(env(o.home().resolve("live"), fast, LiveTurnBench.QUEUE),
            o.turnsPerRound()).run());
      }
      if (o.runs(Measure.Id.P9)) {
        step("P9: turn latency with a capped tenant ÷ no caps ÷ plain loop");
        measures.addAll(new SpendBench(callerEnv, env(o.home().resolve("spend"), slow, QUEUE + "-spend"),
            env(o.home().resolve("spend-plain"), slow, QUEUE + "-spend-plain"), o).run(this::step));
      }
      if (o.runs(Measure.Id.B7)) {
        step("B7: a separate cpctl chat process, " + o.chatRuns() + " × " + o.chatTurns() + " turns");
        measures.addAll(new ChatBench(o, callerEnv).run());
      }
      if (o.runs(Measure.Id.HEAP)) {
        step("heap after " + o.heapTurns() + " turns");
        measures.addAll(new HeapBench(env(o.home().resolve("heap"), fast, QUEUE + "-heap"), o.heapTurns()).run());
      }
    }
    measures.sort(Comparator.comparing(Measure::id));
    BenchReport report = new BenchReport(machine, MachineInfo.currentLoadAverage(), o, settings, measures,
        Stats.millisSince(start) / 1000);
    report.write(o.out());
    return report;
  }

  private void runOrchestrated(FakeAnthropicServer slow) throws Exception {
    try (OrchestratedPlane plane = OrchestratedPlane.open(env(o.home().resolve("plane"), slow, QUEUE));
        PlaneRuntime plainRuntime = PlaneRuntime.open(PlaneConfig.fromEnv(env(o.home().resolve("plain"), slow,
            QUEUE + "-plain")))) {
      describe(plane.config);
      PlainTurnLoop plain = new PlainTurnLoop(plainRuntime, TurnLatencyBench.AGENT);
      TurnLatencyBench p1 = new TurnLatencyBench(plane, plain, o);
      if (o.runs(Measure.Id.P1) || o.runs(Measure.Id.P5)) {
        step("P1: turn latency, orchestrated vs plain loop");
        List<Measure> m = p1.run();
        if (o.runs(Measure.Id.P1)) {
          measures.addAll(m);
          step("P1: turn latency with tracing and metrics on ÷ off");
          measures.addAll(new TelemetryCostBench(plane, env(o.home().resolve("plane-telemetry"), slow,
              QUEUE + "-telemetry"), o).run());
        }
      }
      if (o.runs(Measure.Id.P5)) {
        step("P5: history per turn");
        measures.addAll(new HistoryBench(plane.connection.client(), p1.orchestratedSessions, o.turnsPerRound(),
            plane.config.worker().continueAsNewAfterTurns()).run());
      }
      if (o.runs(Measure.Id.P3)) {
        step("P3: throughput with " + o.sessions() + " concurrent sessions");
        measures.addAll(new ThroughputBench(plane, plain, o).run());
      }
      if (o.runs(Measure.Id.P6)) {
        step("P6: worker killed mid-turn");
        measures.addAll(new CrashBench(plane, env(o.home().resolve("crash"), slow, CrashBench.QUEUE), o).run());
      }
    }
  }

  private void runGateway(FakeAnthropicServer fast) throws Exception {
    step("P2: gateway route() vs raw OkHttp");
    try (PlaneRuntime runtime = PlaneRuntime.open(PlaneConfig.fromEnv(env(o.home().resolve("gateway"), fast,
        QUEUE + "-gateway")))) {
      measures.addAll(new GatewayBench(runtime, fast, o).run());
    }
    step("P2c: gateway route() vs raw OkHttp, the server closing every connection after its response");
    try (FakeAnthropicServer closing = FakeAnthropicServer.startClosing(o.gatewayLatency(), o.toolRound());
        PlaneRuntime runtime = PlaneRuntime.open(PlaneConfig.fromEnv(env(o.home().resolve("gateway-closing"),
            closing, QUEUE + "-gateway-closing")))) {
      measures.addAll(new GatewayBench(runtime, closing, o, true).run());
    }
  }

  private Map<String, String> env(Path home, FakeAnthropicServer fake, String queue) {
    return BenchEnv.of(callerEnv, home, fake.baseUrl(), queue);
  }

  private void describe(PlaneConfig c) {
    StringBuilder d = new StringBuilder();
    for (Tier t : Tier.values()) {
      d.append(d.length() == 0 ? "" : ", ").append(t.wireName()).append(' ')
          .append(c.ledgers().options(t).durability().name().toLowerCase(Locale.ROOT));
    }
    settings.put("ledger durability (P1, P3, P5, P6)", d.toString());
    settings.put("Temporal", "embedded in-process service, one worker, default worker options");
    settings.put("payload encryption", c.payloadKey().isPresent() ? "on" : "off");
  }

  private void step(String what) {
    progress.println("bench: " + what + " ...");
    progress.flush();
  }

  private void resetHome() throws IOException {
    Path home = o.home();
    if (Files.exists(home)) {
      try (Stream<Path> walk = Files.walk(home)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(home);
  }
}
