package cp.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * P3: turns per second with N sessions running turns at once through the orchestrator ÷ the
 * plain loop on N threads, each thread its own session. Sessions are started before the clock
 * starts; each round times N × k turns from the first to the last.
 */
final class ThroughputBench {
  static final double TARGET = 0.8;
  static final long STARTED_POLL_MS = 5;

  private final OrchestratedPlane plane;
  private final PlainTurnLoop plain;
  private final BenchOptions o;
  private final ProcessCpu cpu = new ProcessCpu(2);

  ThroughputBench(OrchestratedPlane plane, PlainTurnLoop plain, BenchOptions o) {
    this.plane = plane;
    this.plain = plain;
    this.o = o;
  }

  List<Measure> run() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(o.sessions());
    try {
      int turns = o.sessions() * o.sessionTurns();
      Interleaved.Result r = Interleaved.run(o.throughputRounds(),
          round -> List.of(cpu.measure(0, turns, () -> orchestrated(pool))),
          round -> List.of(cpu.measure(1, turns, () -> plainLoop(pool))));
      double ratio = r.medianRatio();
      String detail = String.format(Locale.ROOT, "L=%d ms, %d sessions x %d turns a round, %d rounds;"
          + " orchestrated %.1f turns/s, plain loop %.1f turns/s (medians of rounds); CPU per turn %.0f ms vs %.0f ms"
          + " (the orchestrated side's includes the embedded service)", o.latency().toMillis(), o.sessions(),
          o.sessionTurns(), o.throughputRounds(), r.medianA(), r.medianB(), cpu.median(0), cpu.median(1));
      return List.of(Measure.target(Measure.Id.P3, "turns/s, " + o.sessions()
          + " concurrent sessions ÷ plain loop on as many threads", Measure.ratio(ratio), "≥ " + TARGET,
          ratio >= TARGET, detail));
    } finally {
      pool.shutdownNow();
    }
  }

  private double orchestrated(ExecutorService pool) throws Exception {
    List<String> sessions = new ArrayList<>();
    for (int i = 0; i < o.sessions(); i++) {
      sessions.add(plane.client.startSession(TurnLatencyBench.AGENT));
    }
    for (String sid : sessions) {
      awaitStarted(sid);
    }
    List<Callable<Void>> work = new ArrayList<>();
    for (String sid : sessions) {
      work.add(() -> {
        for (int t = 1; t <= o.sessionTurns(); t++) {
          plane.timedTurn(sid, TurnTexts.text(t));
        }
        return null;
      });
    }
    double rate = turnsPerSecond(pool, work);
    for (String sid : sessions) {
      plane.client.end(sid);
    }
    return rate;
  }

  /** Waits until the session has loaded its profile and written SESSION_START, so no turn waits for that. */
  private void awaitStarted(String sid) throws InterruptedException {
    while (plane.client.state(sid) == null) {
      Thread.sleep(STARTED_POLL_MS);
    }
  }

  private double plainLoop(ExecutorService pool) throws Exception {
    List<Callable<Void>> work = new ArrayList<>();
    for (int i = 0; i < o.sessions(); i++) {
      PlainTurnLoop.Session s = plain.start();
      work.add(() -> {
        for (int t = 1; t <= o.sessionTurns(); t++) {
          plain.timedTurn(s, TurnTexts.text(t));
        }
        return null;
      });
    }
    return turnsPerSecond(pool, work);
  }

  private double turnsPerSecond(ExecutorService pool, List<Callable<Void>> work) throws Exception {
    long start = System.nanoTime();
    List<Future<Void>> done = pool.invokeAll(work);
    for (Future<Void> f : done) {
      f.get();
    }
    double seconds = Stats.millisSince(start) / 1000.0;
    return work.size() * o.sessionTurns() / seconds;
  }
}
