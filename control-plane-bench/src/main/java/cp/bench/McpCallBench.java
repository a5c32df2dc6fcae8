package cp.bench;

import cp.model.Json;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import cp.worker.TemporalOptions;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * P7 (issue 22): one MCP tool call through the plane ÷ the same call made directly with the MCP
 * SDK, both against the real reference server (server-everything over stdio), in interleaved
 * rounds. Through the plane: the call as a turn makes it, the {@code Ho1ToolCall} activity
 * scheduled by a workflow on the embedded service (the dispatcher's grant, allow-list and schema
 * checks, the MCP client, the TOOL_CALL entry, the activity's dispatch and result). Directly: a
 * synchronous SDK client's {@code callTool}. The tool is {@code trigger-long-running-operation}
 * taking the benchmark's latency L, so the ratio says what the plane adds to a call of that length;
 * the target is at most 1.10 x the direct call plus 5 ms.
 */
final class McpCallBench {
  static final double RATIO_TARGET = 1.10;
  static final double FIXED_TARGET_MS = 5.0;
  static final String QUEUE = Bench.QUEUE + "-mcp";
  static final String AGENT = "MCPBENCH";
  static final String TOOL = "trigger-long-running-operation";
  static final String SERVER = "everything";
  /** Calls per round on each side; the first round of each side warms it up and is not counted. */
  static final int CALLS_PER_ROUND = 10;

  private final Map<String, String> callerEnv;
  private final Path home;
  private final BenchOptions o;

  McpCallBench(Map<String, String> callerEnv, Path home, BenchOptions o) {
    this.callerEnv = callerEnv;
    this.home = home;
    this.o = o;
  }

  /** The row's text. */
  static final String WHAT = "MCP tool call through the plane (Ho1ToolCall activity) p50 ÷ the same call with the MCP SDK";

  List<Measure> run() throws Exception {
    McpReferenceServer everything;
    try {
      everything = McpReferenceServer.locate(callerEnv, home.resolve("mcp-servers"));
    } catch (IllegalStateException e) {
      return List.of(Measure.info(Measure.Id.P7, WHAT, "not run", e.getMessage()));
    }
    String arguments = Json.object().put("duration", o.latency().toMillis() / 1000.0).put("steps", 1).toString();
    Map<String, String> env = planeEnv(everything);
    PlaneConfig config = PlaneConfig.fromEnv(env);
    try (PlaneRuntime runtime = PlaneRuntime.open(config);
        TemporalConnection conn = TemporalConnection.open(config);
        McpSyncClient direct = McpClient.sync(new StdioClientTransport(ServerParameters.builder(everything.node())
            .args(everything.script().toString(), "stdio").build(), McpJsonDefaults.getMapper()))
            .requestTimeout(Duration.ofSeconds(30)).build()) {
      direct.initialize();
      WorkerFactory factory = WorkerFactory.newInstance(conn.client());
      Worker w = factory.newWorker(QUEUE, TemporalOptions.workerOptions(false, "bench-mcp"));
      PlaneWorker.register(w, conn.client(), runtime, config.worker());
      w.registerWorkflowImplementationTypes(TemporalOptions.implementationOptions(config.worker()),
          McpBenchWorkflowImpl.class);
      factory.start();
      try {
        String tool = SERVER + "/" + TOOL;
        Map<String, Object> args = Json.convert(Json.parse(arguments), Map.class);
        Interleaved.Result r = Interleaved.run(o.rounds() + 1, round -> throughPlane(conn, tool, arguments, round),
            round -> directly(direct, args));
        double plane = medianSkippingWarmUp(r, 0);
        double sdk = medianSkippingWarmUp(r, 1);
        double ratio = plane / sdk;
        boolean met = plane <= RATIO_TARGET * sdk + FIXED_TARGET_MS;
        return List.of(Measure.target(Measure.Id.P7, WHAT, Measure.ratio(ratio), "≤ " + RATIO_TARGET + "x + " + (int) FIXED_TARGET_MS
            + " ms", met, String.format(Locale.ROOT, "%.1f ms ÷ %.1f ms (plane − direct = %.1f ms), %s %s over"
            + " stdio, %d rounds of %d calls a side after one warm-up round", plane, sdk, plane - sdk, SERVER, TOOL,
            o.rounds(), CALLS_PER_ROUND)));
      } finally {
        factory.shutdownNow();
      }
    }
  }

  private List<Double> throughPlane(TemporalConnection conn, String tool, String arguments, int round) {
    McpBenchWorkflow wf = conn.client().newWorkflowStub(McpBenchWorkflow.class, WorkflowOptions.newBuilder()
        .setTaskQueue(QUEUE).setWorkflowId("bench-mcp-" + round + "-" + System.nanoTime()).build());
    List<Long> ms = wf.run(String.format(Locale.ROOT, "SES-%08x", round), AGENT, tool, arguments, CALLS_PER_ROUND);
    return ms.stream().map(Long::doubleValue).toList();
  }

  private static List<Double> directly(McpSyncClient client, Map<String, Object> args) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < CALLS_PER_ROUND; i++) {
      long start = System.nanoTime();
      McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(TOOL, args));
      out.add(Stats.millisSince(start));
      if (Boolean.TRUE.equals(r.isError())) {
        throw new IllegalStateException("the direct call failed: " + r.content());
      }
    }
    return out;
  }

  /** The median of the round medians of one side, its first (warm-up) round left out. */
  private static double medianSkippingWarmUp(Interleaved.Result r, int side) {
    List<Double> medians = new ArrayList<>();
    List<List<Double>> rounds = r.sides().get(side);
    for (int i = 1; i < rounds.size(); i++) {
      medians.add(Stats.median(rounds.get(i)));
    }
    return Stats.median(medians);
  }

  private Map<String, String> planeEnv(McpReferenceServer everything) throws java.io.IOException {
    Path agents = Files.createDirectories(home.resolve("agents"));
    Files.writeString(agents.resolve("mcpbench.yaml"), "agent_class: " + AGENT + "\n"
        + "instructions: Benchmark agent.\n"
        + "tools: ['" + SERVER + "/" + TOOL + "']\n"
        + "mcp_servers:\n  " + SERVER + ": {command: '" + everything.node() + "', args: ['" + everything.script()
        + "', stdio]}\n");
    Map<String, String> env = new HashMap<>();
    callerEnv.forEach((k, v) -> {
      if (k.startsWith("CP_") && !BenchEnv.OWNED.contains(k)) {
        env.put(k, v);
      }
    });
    env.put("CP_HOME", home.resolve("plane").toAbsolutePath().toString());
    env.put("CP_PROVIDER", "offline");
    env.put("CP_TASK_QUEUE", QUEUE);
    env.put("CP_AGENTS_DIR", agents.toString());
    env.put("PATH", callerEnv.getOrDefault("PATH", System.getenv().getOrDefault("PATH", "")));
    return env;
  }
}
