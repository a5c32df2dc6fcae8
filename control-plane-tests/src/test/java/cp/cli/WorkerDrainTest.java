package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.ControlPlaneClient;
import cp.ledger.Ledgers;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalConnection;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §3 "Drain on SIGTERM", with a separate {@code cpctl worker} process: SIGTERM arrives
 * while the turn's first LLM call is in flight (the fake Anthropic API answers it after
 * {@link #CALL_SECONDS} s). The worker stops polling, lets the call finish and report its result to
 * Temporal, and exits 0; a second worker finishes the turn without asking the provider again. When
 * the grace ({@code CP_SHUTDOWN_GRACE_SECONDS}) passes first, or a second SIGTERM comes, the worker
 * says which activity it abandons and exits 1.
 */
class WorkerDrainTest {
  /** The provider call in flight at SIGTERM: longer than the old fixed 10 s grace. */
  static final long CALL_SECONDS = 15;

  @TempDir Path dir;
  private final MockWebServer server = new MockWebServer();
  private final AnthropicTurnMock model = AnthropicTurnMock.answering();
  private final CountDownLatch slowCallArrived = new CountDownLatch(1);
  private EmbeddedTemporal temporal;
  private CpctlProcesses procs;
  private Map<String, String> env;

  @BeforeEach
  void start() throws Exception {
    AtomicBoolean first = new AtomicBoolean(true);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        MockResponse r = model.dispatch(request);
        if (first.getAndSet(false)) {
          slowCallArrived.countDown();
          return r.newBuilder().bodyDelay(CALL_SECONDS, TimeUnit.SECONDS).build();
        }
        return r;
      }
    });
    server.start(InetAddress.getLoopbackAddress(), 0);
    int port = CpctlProcesses.freePort();
    temporal = EmbeddedTemporal.onPort(port);
    SearchAttributeRegistrar.ensure(temporal.operator(), PlaneConfig.DEFAULT_NAMESPACE);
    procs = CpctlProcesses.onClasspath(dir).describing(model::describe);
    env = new HashMap<>();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
    env.put("CP_HOME", dir.resolve("home").toString());
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", AnthropicTurnMock.API_KEY);
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_HEARTBEAT_TIMEOUT_MS", "2000");
  }

  @AfterEach
  void stop() {
    procs.close();
    temporal.close();
    server.close();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void sigtermDuringA15sProviderCall_theCallFinishesOnce_theTurnCompletes_theWorkerExits0() throws Exception {
    CpctlProcesses.Cli worker1 = procs.start("worker-1", env, "worker");
    worker1.awaitOutput("worker polling");
    PlaneConfig config = PlaneConfig.fromEnv(env);
    try (TemporalConnection conn = TemporalConnection.open(config)) {
      ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
          List.of("ADMIN", "RESIDENT"), config.worker().continueAsNewAfterTurns());
      String sid = client.startSession("ADMIN");
      CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> client.turn(sid, AnthropicTurnMock.QUESTION));
      assertTrue(slowCallArrived.await(40, TimeUnit.SECONDS), "the first LLM call never came\n" + procs.describeAll());

      long signalled = System.nanoTime();
      worker1.signal("TERM");
      worker1.awaitOutput("draining");
      int exit = worker1.awaitExit(java.time.Duration.ofSeconds(CALL_SECONDS + 30));
      long drainedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
      System.out.println("WorkerDrainTest: SIGTERM -> exit " + exit + " after " + drainedMs + " ms\n" + worker1.stdout());
      assertEquals(0, exit, worker1.describe());
      assertTrue(worker1.stdout().contains("Ho1LlmRound"), "the drain names the call it waits for\n" + worker1.describe());
      assertTrue(worker1.stdout().contains("drained in"), worker1.describe());
      assertEquals(Map.of("classify/round-1", 1), model.counts(), "only the call in flight was asked, once");

      CpctlProcesses.Cli worker2 = procs.start("worker-2", env, "worker");
      worker2.awaitOutput("worker polling");
      TurnResult r = turn.get(60, TimeUnit.SECONDS);
      assertEquals(TurnOutcome.SUCCESS, r.outcome(), () -> r + "\n" + procs.describeAll());
      assertEquals(AnthropicTurnMock.ONE_TURN, model.counts(), "each round asked once: the drained call was not repeated");
      worker2.stop();
    }
    try (Ledgers ledgers = Ledgers.open(dir.resolve("home"))) {
      assertEquals(3, ledgers.hot().byEventType("EXCHANGE").size(), "provider answers = EXCHANGEs");
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void graceShorterThanTheCall_theWorkerNamesTheAbandonedCall_andExits1() throws Exception {
    env.put("CP_SHUTDOWN_GRACE_SECONDS", "2");
    CpctlProcesses.Cli worker = startTurnAndAwaitTheSlowCall();
    long signalled = System.nanoTime();
    worker.signal("TERM");
    int exit = worker.awaitExit(java.time.Duration.ofSeconds(20));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
    assertEquals(1, exit, worker.describe());
    assertTrue(ms < CALL_SECONDS * 1000, "stopped after the grace, not after the call: " + ms + " ms");
    assertTrue(worker.stderr().contains("the grace of 2 s (CP_SHUTDOWN_GRACE_SECONDS) passed: abandoning 1 running"
        + " activity (Ho1LlmRound"), worker.describe());
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aSecondSigterm_stopsAtOnce_namingTheAbandonedCall() throws Exception {
    CpctlProcesses.Cli worker = startTurnAndAwaitTheSlowCall();
    worker.signal("TERM");
    worker.awaitOutput("draining");
    long second = System.nanoTime();
    worker.signal("TERM");
    int exit = worker.awaitExit(java.time.Duration.ofSeconds(20));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - second);
    assertEquals(1, exit, worker.describe());
    assertTrue(ms < CALL_SECONDS * 1000, "stopped at the second signal, not after the call: " + ms + " ms");
    assertTrue(worker.stderr().contains("a second stop signal: abandoning 1 running activity (Ho1LlmRound"),
        worker.describe());
  }

  private CpctlProcesses.Cli startTurnAndAwaitTheSlowCall() throws Exception {
    CpctlProcesses.Cli worker = procs.start("worker", env, "worker");
    worker.awaitOutput("worker polling");
    CliHarness.Run start = CliHarness.run(env, "session", "start");
    assertEquals(Cpctl.OK, start.code(), start::describe);
    procs.start("turn", env, "turn", "--session", start.out().trim(), AnthropicTurnMock.QUESTION);
    assertTrue(slowCallArrived.await(40, TimeUnit.SECONDS), "the first LLM call never came\n" + procs.describeAll());
    return worker;
  }
}
