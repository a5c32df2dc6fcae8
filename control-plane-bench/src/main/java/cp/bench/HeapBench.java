package cp.bench;

import cp.client.ControlPlaneClient;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.TemporalConnection;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The heap of the embedded service and a worker after N turns, in this JVM: used heap after a
 * full collection before the plane starts, after it started, after N turns, after the worker
 * stopped and was dropped (its workflow cache released) and after the service stopped and was
 * dropped (its in-memory histories released). The differences attribute the growth.
 */
final class HeapBench {
  /** Turns per session: well inside the agent's turn limit and token budget. */
  static final int TURNS_PER_SESSION = 25;
  /** Sessions running at once. */
  static final int CONCURRENT = 10;
  static final double MB = 1024.0 * 1024.0;
  /** Collections per measurement: one more after the heap stops shrinking is noise. */
  static final int GC_PASSES = 3;
  static final long GC_PAUSE_MS = 100;

  private final Map<String, String> env;
  private final int turns;
  private TemporalConnection connection;
  private PlaneWorker worker;
  private ControlPlaneClient client;

  HeapBench(Map<String, String> env, int turns) {
    this.env = env;
    this.turns = turns;
  }

  List<Measure> run() throws Exception {
    long before = usedAfterGc();
    PlaneConfig config = PlaneConfig.fromEnv(env);
    long started;
    long afterTurns;
    long afterWorker;
    long afterService;
    try (PlaneRuntime runtime = PlaneRuntime.open(config)) {
      try {
        connection = TemporalConnection.open(config);
        connection.ensureSearchAttributes();
        worker = PlaneWorker.startSoleWorker(connection, runtime, "bench-heap");
        client = new ControlPlaneClient(connection.client(), config.worker().taskQueue(),
            runtime.catalog().agentClasses(), config.worker().continueAsNewAfterTurns());
        started = usedAfterGc();
        runTurns();
        afterTurns = usedAfterGc();
        worker.close();
        worker = null;
        afterWorker = usedAfterGc();
        client.close();
        client = null;
        connection.close();
        connection = null;
        afterService = usedAfterGc();
      } finally {
        if (worker != null) {
          worker.close();
        }
        if (connection != null) {
          connection.close();
        }
      }
    }
    String value = String.format(Locale.ROOT, "%.0f MB used (service ≈ %.0f MB, worker ≈ %.0f MB)",
        afterTurns / MB, (afterWorker - afterService) / MB, (afterTurns - afterWorker) / MB);
    String detail = String.format(Locale.ROOT, "used heap after full GC: %.0f MB before the plane, %.0f MB started,"
        + " %.0f MB after %d turns (%.1f KB a turn), %.0f MB once the worker stopped, %.0f MB once the service"
        + " stopped; max heap %.0f MB", before / MB, started / MB, afterTurns / MB, turns,
        (afterTurns - started) / 1024.0 / turns, afterWorker / MB, afterService / MB,
        Runtime.getRuntime().maxMemory() / MB);
    return List.of(Measure.info(Measure.Id.HEAP, "heap after " + turns + " turns (embedded service + worker)", value,
        detail));
  }

  private void runTurns() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CONCURRENT);
    try {
      List<Callable<Void>> work = new ArrayList<>();
      for (int left = turns; left > 0; left -= TURNS_PER_SESSION) {
        int n = Math.min(TURNS_PER_SESSION, left);
        work.add(() -> {
          String sid = client.startSession(TurnLatencyBench.AGENT);
          for (int t = 1; t <= n; t++) {
            PlainTurnLoop.requireSuccess(client.turn(sid, TurnTexts.text(t)).outcome(), sid, "heap turn");
          }
          client.end(sid);
          return null;
        });
      }
      for (Future<Void> f : pool.invokeAll(work)) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < GC_PASSES; i++) {
      System.gc();
      Thread.sleep(GC_PAUSE_MS);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
