package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.client.ControlPlaneClient;
import cp.contracts.CatalogFixture;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.PlaneLayout;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak: one session of {@value #DEFAULT_TURNS} turns on the offline provider through the real
 * runtime, a worker in this JVM against {@code cpctl dev-server} in its own JVM (so this JVM's heap
 * is the worker's and the client's, not the service's store of histories).
 *
 * <p>The session continues as new every {@value #TURNS_PER_RUN} turns. Every run of it must stay
 * below Temporal's history warnings (10,240 events, 10 MB), every turn workflow too; turns and
 * tokens must carry over exactly (the sum of the TurnResults is the session's final state, its
 * SESSION_END and its EXCHANGE records); every ledger must verify with no entry written twice;
 * the worker's heap after a full GC at the end must not be much above its heap after warm-up.
 * Tagged slow: {@code mvn -o verify -Pslow -Dit.test=SoakIT -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false}
 * ({@code -Dcp.soak.turns=N} for a shorter run).
 */
@Tag("slow")
class SoakIT {
  static final int DEFAULT_TURNS = 1000;
  static final int TURNS_PER_RUN = 100;
  /** Temporal's history warnings (TEMPORAL-NOTES.md). */
  static final int HISTORY_EVENT_WARNING = 10_240;
  static final long HISTORY_BYTES_WARNING = 10L * 1024 * 1024;
  /** Heap measured after this many turns is the baseline. */
  static final int WARM_UP_TURNS = TURNS_PER_RUN;
  /**
   * Allowed heap growth from warm-up to the end, after a full GC. Generous: the ledgers' in-memory
   * indexes grow by design (a few hundred bytes per entry, ~15 entries per turn).
   */
  static final long HEAP_GROWTH_BOUND = 64L * 1024 * 1024;
  /** The soak agent's limits: ADMIN's, widened so a thousand turns fit. */
  static final long SESSION_TOKENS = 500_000_000L;
  static final int TURN_LIMIT = 5_000;
  static final int LIFETIME_SECONDS = 24 * 3600;

  @TempDir Path dir;

  /** What the user says in turn {@code n}: greetings, questions, and now and then a tool. */
  static String message(int n) {
    if (n % 50 == 25) {
      return "check the gates";
    }
    if (n % 10 == 3) {
      return "what packages are installed?";
    }
    return n % 2 == 0 ? "hello, this is turn " + n : "what does the HOT ledger record?";
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES)
  void aThousandTurnSession_staysWithinHistoryLimits_carriesItsBudgetExactly_andKeepsTheHeapFlat() throws Exception {
    int turns = Integer.getInteger("cp.soak.turns", DEFAULT_TURNS);
    Path resources = dir.resolve("resources");
    CatalogFixture.copyOfShipped(resources).edit("agents/admin.json", a -> ((ObjectNode) a.get("budget"))
        .put("session_token_limit", SESSION_TOKENS).put("turn_limit", TURN_LIMIT)
        .put("timeout_seconds", LIFETIME_SECONDS).put("idle_timeout_seconds", LIFETIME_SECONDS));
    Path home = dir.resolve("home");
    try (CpctlProcesses procs = new CpctlProcesses(dir)) {
      int port = CpctlProcesses.freePort();
      procs.start("dev-server", Map.of(), "dev-server", "--port", String.valueOf(port)).awaitOutput("listening on");
      Map<String, String> env = new HashMap<>();
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_HOME", home.toString());
      env.put("CP_PROVIDER", "offline");
      env.put("CP_RESOURCES_DIR", resources.toString());
      env.put("CP_CONTINUE_AS_NEW_TURNS", String.valueOf(TURNS_PER_RUN));
      PlaneConfig config = PlaneConfig.fromEnv(env);
      try (PlaneRuntime runtime = PlaneRuntime.open(config);
          TemporalConnection conn = TemporalConnection.open(config);
          PlaneWorker worker = PlaneWorker.start(conn, runtime, "soak")) {
        ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
            runtime.catalog().agentClasses(), config.worker().continueAsNewAfterTurns());
        Soak soak = new Soak(client, conn, runtime, turns);
        soak.run();
        soak.report();
        soak.assertAll();
      }
    }
  }

  /** The session, the figures it produced, and the checks on them. */
  private static final class Soak {
    final ControlPlaneClient client;
    final TemporalConnection conn;
    final PlaneRuntime runtime;
    final int turns;
    final List<TurnResult> results = new ArrayList<>();
    String sid;
    String firstRunId;
    long heapAfterWarmUp;
    long heapAtEnd;
    long millis;
    long tokens;
    SessionState state;
    SessionSummary summary;
    final List<long[]> runs = new ArrayList<>();
    long maxTurnEvents;
    long maxTurnBytes;

    Soak(ControlPlaneClient client, TemporalConnection conn, PlaneRuntime runtime, int turns) {
      this.client = client;
      this.conn = conn;
      this.runtime = runtime;
      this.turns = turns;
    }

    void run() {
      long start = System.nanoTime();
      sid = client.startSession("ADMIN");
      firstRunId = conn.client().newUntypedWorkflowStub(sid).describe().getExecution().getRunId();
      for (int n = 1; n <= turns; n++) {
        TurnResult r = client.turn(sid, message(n));
        results.add(r);
        tokens += r.costSummary().totalTokens();
        if (n == Math.min(WARM_UP_TURNS, turns)) {
          heapAfterWarmUp = heapAfterFullGc();
        }
        if (n % TURNS_PER_RUN == 0) {
          System.out.printf("SoakIT: %d turns, %.1f s%n", n, (System.nanoTime() - start) / 1e9);
        }
      }
      state = client.state(sid);
      summary = client.end(sid);
      millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      heapAtEnd = heapAfterFullGc();
      collectRuns();
      for (int n = 1; n <= turns; n++) {
        WorkflowExecutionHistory h = conn.client().fetchHistory(WorkOrderIds.turnWorkflow(sid, n));
        maxTurnEvents = Math.max(maxTurnEvents, h.getEvents().size());
        maxTurnBytes = Math.max(maxTurnBytes, h.getHistory().getSerializedSize());
      }
    }

    /** Events and bytes of every run of the session, following continue-as-new from the first. */
    private void collectRuns() {
      String runId = firstRunId;
      while (runId != null) {
        WorkflowExecutionHistory h = conn.client().fetchHistory(sid, runId);
        runs.add(new long[] {h.getEvents().size(), h.getHistory().getSerializedSize()});
        HistoryEvent last = h.getLastEvent();
        runId = last.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
            ? last.getWorkflowExecutionContinuedAsNewEventAttributes().getNewExecutionRunId() : null;
      }
    }

    void report() {
      long maxEvents = runs.stream().mapToLong(r -> r[0]).max().orElse(0);
      long maxBytes = runs.stream().mapToLong(r -> r[1]).max().orElse(0);
      System.out.printf("SoakIT: %d turns in %.1f s (%.1f turns/s), %d session runs (continue-as-new every %d"
          + " turns)%n", turns, millis / 1000.0, turns * 1000.0 / millis, runs.size(), TURNS_PER_RUN);
      System.out.printf("SoakIT: largest session run: %d events, %d bytes; largest turn workflow: %d events, %d"
          + " bytes%n", maxEvents, maxBytes, maxTurnEvents, maxTurnBytes);
      System.out.printf("SoakIT: tokens %d over %d turns; final state %d turns, %d tokens; outcomes %s%n", tokens,
          results.size(), state.turns(), state.tokensUsed(), outcomes());
      System.out.printf("SoakIT: heap after full GC: %.1f MB after %d turns, %.1f MB at the end (growth %.1f MB)%n",
          mb(heapAfterWarmUp), Math.min(WARM_UP_TURNS, turns), mb(heapAtEnd), mb(heapAtEnd - heapAfterWarmUp));
      for (var e : runtime.ledgers().all()) {
        System.out.printf("SoakIT: ledger %s: %d entries%n", e.getKey().label(), e.getValue().size());
      }
    }

    void assertAll() throws Exception {
      // Turns and tokens carry over exactly, across every continue-as-new.
      assertEquals(turns, results.size());
      for (int n = 1; n <= turns; n++) {
        assertEquals(n, results.get(n - 1).turn(), "turn numbers run on across runs");
        assertNotEquals(TurnOutcome.ERROR, results.get(n - 1).outcome(), results.get(n - 1)::toString);
      }
      assertEquals(turns, state.turns());
      assertEquals(tokens, state.tokensUsed(), "the session's tokens are the sum of its turns'");
      assertEquals(turns, summary.turns());
      assertEquals(tokens, summary.tokensUsed());
      assertEquals(tokens, results.get(turns - 1).costSummary().sessionTokensUsed(), "the last footer's total");
      LedgerStream hot = runtime.ledgers().hot();
      List<LedgerEntry> ofSession = hot.bySession(sid);
      long exchangeTokens = ofSession.stream().filter(e -> e.eventType().equals("EXCHANGE"))
          .mapToLong(e -> e.meta("input_tokens").asLong() + e.meta("output_tokens").asLong()).sum();
      assertEquals(tokens, exchangeTokens, "every token counted is an EXCHANGE's");
      LedgerEntry end = ofSession.stream().filter(e -> e.eventType().equals("SESSION_END")).findFirst().orElseThrow();
      assertEquals(tokens, end.meta("tokens_used").asLong(), end::toString);
      assertEquals(runs.size(), end.meta("runs").asInt(), "SESSION_END counts the runs");
      assertEquals(1, ofSession.stream().filter(e -> e.eventType().equals("SESSION_START")).count());

      // Every run below Temporal's history warnings; enough runs that continue-as-new really happened.
      assertTrue(runs.size() >= turns / TURNS_PER_RUN, "runs: " + runs.size());
      for (long[] r : runs) {
        assertTrue(r[0] < HISTORY_EVENT_WARNING, "a run has " + r[0] + " events");
        assertTrue(r[1] < HISTORY_BYTES_WARNING, "a run has " + r[1] + " bytes");
      }
      assertTrue(maxTurnEvents < HISTORY_EVENT_WARNING && maxTurnBytes < HISTORY_BYTES_WARNING);

      // Every ledger verifies; nothing was written twice.
      for (var e : runtime.ledgers().all()) {
        assertTrue(e.getValue().verify().ok(), e.getKey().label() + ": " + e.getValue().verify());
        LedgerLines.assertNoDuplicates(e.getKey().label(), LedgerLines.read(runtime.ledgers().layout().ledgerPath(e.getKey().tier(), e.getKey().agentClass())));
      }
      assertEquals(List.of("hot", "ho2/ADMIN", "ho1"),
          new PlaneLayout(runtime.ledgers().layout().root()).existingLedgers().stream()
              .map(PlaneLayout.LedgerFile::label).toList());

      // The worker's memory stays flat.
      assertTrue(heapAtEnd - heapAfterWarmUp < HEAP_GROWTH_BOUND, "heap grew by " + mb(heapAtEnd - heapAfterWarmUp)
          + " MB");
    }

    private Map<String, Long> outcomes() {
      Map<String, Long> m = new java.util.TreeMap<>();
      results.forEach(r -> m.merge(r.outcome(), 1L, Long::sum));
      return m;
    }
  }

  /** Used heap after a full collection (System.gc() runs one with the serial and G1 collectors). */
  static long heapAfterFullGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static double mb(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
