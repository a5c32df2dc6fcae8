package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.ClientException;
import cp.client.ControlPlaneClient;
import cp.ledger.LedgerDatabase;
import cp.ledger.TestPostgres;
import cp.model.Json;
import cp.model.TurnResult;
import cp.worker.PlaneConfig;
import cp.worker.TemporalConnection;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 (h10's gap): a tenant's daily cap held by two worker processes (two JVMs, two CP_HOMEs:
 * two hosts that share nothing on disk) sharing one PostgreSQL database ({@code CP_LEDGER_URL}).
 * Eight sessions of tenant acme take turns at once; the model bills every call its whole
 * {@code max_tokens} (the reservation's worst case, so the cap really binds) and tells which
 * worker asked (each worker has its own base URL path). What the provider billed, summed from the
 * EXCHANGEs, stays within the cap across both processes, both processes made calls, and calls
 * past the cap were refused. With counters per process (JSONL under each CP_HOME) the two
 * would each have admitted up to the cap.
 */
class TwoHostTenantCapIT {
  /** The mock's model, priced in CP_PRICES_FILE: $3 / $15 per million tokens (input / output). */
  static final String MODEL = "claude-sonnet-4-5";
  static final double OUTPUT_USD_PER_TOKEN = 15.0 / 1_000_000;
  static final int SESSIONS = 8;
  static final int TURNS_PER_SESSION = 3;

  @TempDir Path dir;
  private CpctlProcesses procs;
  private final MockWebServer server = new MockWebServer();
  private final BillingModel model = new BillingModel();

  @AfterEach
  void cleanUp() {
    if (procs != null) {
      procs.close();
    }
    server.close();
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void twoWorkerProcessesSharingPostgres_billTheTenantNoMoreThanItsDailyCap() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase();
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    procs = CpctlProcesses.onClasspath(dir).describing(model::describe);
    int port = procs.startDevServer();

    // Cap: about 10 calls' worst case, far below what 8 sessions x 3 turns x 2 calls would bill.
    double cap = 0.25;
    Path tenants = Files.writeString(dir.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": " + cap + "}}}");
    Map<String, String> common = new HashMap<>(TestPostgres.env(db));
    common.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    common.put("CP_PROVIDER", "anthropic");
    common.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
    common.put("CP_TENANTS_FILE", tenants.toString());
    common.put("CP_TENANT_WAIT_MS", "2000");
    common.put("CP_BREAKER_FAILURES", "1000");
    // Each host's worker polls a task queue of its own and half the sessions are started on each, so both
    // processes certainly make calls (on one shared queue the service may hand every task to one of them).
    Map<String, String> onA = with(common, "CP_TASK_QUEUE", "two-host-tenant-a", "CP_HOME",
        Files.createDirectories(dir.resolve("host-a")).toString(),
        "ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort() + "/host-a");
    Map<String, String> onB = with(common, "CP_TASK_QUEUE", "two-host-tenant-b", "CP_HOME",
        Files.createDirectories(dir.resolve("host-b")).toString(),
        "ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort() + "/host-b");
    Map<String, String> onC = with(common, "CP_HOME", Files.createDirectories(dir.resolve("host-c")).toString(),
        "ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort() + "/host-c");

    CpctlProcesses.Cli workerA = procs.start("worker-a", onA, "worker");
    CpctlProcesses.Cli workerB = procs.start("worker-b", onB, "worker");
    workerA.awaitOutput("sticky off");
    workerB.awaitOutput("sticky off");

    PlaneConfig config = PlaneConfig.fromEnv(onC);
    List<String> sessions = new ArrayList<>();
    AtomicInteger answered = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    try (TemporalConnection conn = TemporalConnection.open(config)) {
      ControlPlaneClient client = new ControlPlaneClient(conn.client(), onA.get("CP_TASK_QUEUE"), List.of("ADMIN"),
          config.worker().continueAsNewAfterTurns());
      ControlPlaneClient clientB = new ControlPlaneClient(conn.client(), onB.get("CP_TASK_QUEUE"), List.of("ADMIN"),
          config.worker().continueAsNewAfterTurns());
      for (int i = 0; i < SESSIONS; i++) {
        sessions.add((i % 2 == 0 ? client : clientB).startSession("ADMIN", "acme"));
      }
      ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
      try {
        List<Future<?>> running = new ArrayList<>();
        for (String sid : sessions) {
          running.add(pool.submit(() -> {
            for (int t = 1; t <= TURNS_PER_SESSION; t++) {
              try {
                TurnResult r = client.turn(sid, "question " + t + " of " + sid);
                (r.errorCode() == null ? answered : refused).incrementAndGet();
              } catch (ClientException e) {
                refused.incrementAndGet(); // refused up front for the tenant's day
              }
            }
            return null;
          }));
        }
        for (Future<?> f : running) {
          f.get(240, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
    workerA.stop();
    workerB.stop();

    CliHarness.Run exchanges = CliHarness.run(onC, "ledger", "query", "--tier", "hot", "--event", "EXCHANGE",
        "--json", "--limit", "0");
    assertEquals(Cpctl.OK, exchanges.code(), exchanges::describe);
    double billed = 0;
    int calls = 0;
    for (String line : exchanges.out().lines().filter(l -> !l.isBlank()).toList()) {
      JsonNode m = Json.parse(line).path("metadata");
      assertEquals("acme", m.path("tenant").asText(), line);
      billed += m.path("cost_usd").asDouble();
      calls++;
    }
    System.out.printf("TwoHostTenantCapIT: %d calls billed $%.4f of a $%.4f cap; turns answered %d, refused %d;"
        + " provider calls per host %s%n", calls, billed, cap, answered.get(), refused.get(), model.perHost);
    assertTrue(billed <= cap + 1e-9, "billed $" + billed + " > cap $" + cap + "\n" + model.describe());
    assertTrue(billed > cap / 2, "the cap was approached: $" + billed);
    assertTrue(refused.get() > 0, "turns past the cap were refused");
    assertTrue(model.perHost.getOrDefault("host-a", 0) > 0 && model.perHost.getOrDefault("host-b", 0) > 0,
        "both worker processes made calls: " + model.perHost);
    assertEquals(0, model.perHost.getOrDefault("host-c", 0), "no worker ran on host c");
    CliHarness.Run spend = CliHarness.run(onC, "spend", "--tenant", "acme", "--json");
    assertEquals(Cpctl.OK, spend.code(), spend::describe);
    assertEquals(billed, Json.parse(spend.out().strip()).path("total_usd").asDouble(), 1e-9, spend::describe);
  }

  private static Map<String, String> with(Map<String, String> env, String... kv) {
    Map<String, String> m = new HashMap<>(env);
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  /**
   * Answers classify and synthesize; bills each call 1 input token and all of its max_tokens (so
   * what is billed is what was reserved for output) and counts calls per host (the base URL path).
   */
  static final class BillingModel extends Dispatcher {
    final Map<String, Integer> perHost = new ConcurrentHashMap<>();

    String describe() {
      return "provider calls per host: " + perHost;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getUrl().encodedPath();
      String host = path.split("/").length > 1 ? path.split("/")[1] : "?";
      perHost.merge(host, 1, Integer::sum);
      JsonNode body = Json.parse(request.getBody() == null ? "{}" : request.getBody().utf8());
      String system = body.path("system").asText("");
      int maxTokens = body.path("max_tokens").asInt(1);
      String text = system.contains("## This step: classify")
          ? "{\"speech_act\":\"question\",\"ambiguity\":\"low\",\"intent\":\"recall\",\"needs_tools\":false}"
          : Json.object().put("response_text", "an answer").toString();
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body("{\"id\":\"msg_mock\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + MODEL + "\","
              + "\"content\":[" + Json.object().put("type", "text").put("text", text) + "],\"stop_reason\":\"end_turn\","
              + "\"usage\":{\"input_tokens\":1,\"output_tokens\":" + maxTokens + "}}")
          .build();
    }
  }
}
