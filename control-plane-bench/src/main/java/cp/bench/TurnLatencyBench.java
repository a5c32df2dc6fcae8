package cp.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * P1: turn latency through SessionWorkflow, TurnWorkflow and HO1 ÷ the plain loop making the
 * same provider calls and ledger writes, at the fake provider's latency L. Every round starts a
 * new session on each side and runs the same turns in it; the sessions of the orchestrated side
 * are kept for P5's history measures.
 */
final class TurnLatencyBench {
  static final String AGENT = "ADMIN";
  static final double P50_TARGET = 1.05;
  static final double P99_TARGET = 1.20;
  /** Warm-up turns per session: a session's token budget lasts a few dozen turns. */
  static final int WARMUP_SESSION_TURNS = 15;

  private final OrchestratedPlane plane;
  private final PlainTurnLoop plain;
  private final BenchOptions o;
  final List<String> orchestratedSessions = new ArrayList<>();
  private final ProcessCpu cpu = new ProcessCpu(2);

  TurnLatencyBench(OrchestratedPlane plane, PlainTurnLoop plain, BenchOptions o) {
    this.plane = plane;
    this.plain = plain;
    this.o = o;
  }

  /** Untimed turns on both sides: class loading, JIT, connection pools. */
  static void warmUp(OrchestratedPlane plane, PlainTurnLoop plain, int turns) {
    for (int done = 0; done < turns; done += WARMUP_SESSION_TURNS) {
      String sid = plane.client.startSession(AGENT);
      PlainTurnLoop.Session ps = plain.start();
      for (int t = 1; t <= Math.min(WARMUP_SESSION_TURNS, turns - done); t++) {
        plane.timedTurn(sid, TurnTexts.text(t));
        plain.timedTurn(ps, TurnTexts.text(t));
      }
      plane.client.end(sid);
    }
  }

  List<Measure> run() throws Exception {
    warmUp(plane, plain, o.warmupTurns());
    Interleaved.Result r = Interleaved.run(o.rounds(), round -> cpu.measure(0, o.turnsPerRound(), this::orchestratedRound),
        round -> cpu.measure(1, o.turnsPerRound(), this::plainRound));
    double p50 = r.medianRatio();
    double p99 = r.pooledA(99) / r.pooledB(99);
    long twoL = o.latency().toMillis() * (o.toolRound() ? 3 : 2);
    String detail = String.format(Locale.ROOT, "L=%d ms, %d rounds x %d turns a side; orchestrated p50 %.1f ms"
        + " / p99 %.1f ms, plain loop p50 %.1f ms / p99 %.1f ms; beyond the %d ms of provider latency a turn"
        + " waits for: orchestrated %.1f ms, plain %.1f ms (p50)", o.latency().toMillis(), o.rounds(),
        o.turnsPerRound(), r.medianA(), r.pooledA(99), r.medianB(), r.pooledB(99), twoL, r.medianA() - twoL,
        r.medianB() - twoL);
    return List.of(
        Measure.target(Measure.Id.P1, "turn latency p50, orchestrated ÷ plain loop", Measure.ratio(p50),
            "≤ " + P50_TARGET, p50 <= P50_TARGET, detail),
        Measure.target(Measure.Id.P1, "turn latency p99, orchestrated ÷ plain loop", Measure.ratio(p99),
            "≤ " + P99_TARGET, p99 <= P99_TARGET, "p99 over all samples of a side, rounds pooled"),
        Measure.info(Measure.Id.P1, "CPU per turn (this process), orchestrated vs plain loop",
            String.format(Locale.ROOT, "%.0f ms vs %.0f ms", cpu.median(0), cpu.median(1)),
            "process CPU time over each round ÷ its turns, median of rounds; the orchestrated side includes the"
                + " embedded Temporal service and the JIT; both include the fake provider. Unlike latency, it does"
                + " not depend on what else the machine runs"));
  }

  private List<Double> orchestratedRound() {
    String sid = plane.client.startSession(AGENT);
    orchestratedSessions.add(sid);
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.turnsPerRound(); t++) {
      ms.add(plane.timedTurn(sid, TurnTexts.text(t)));
    }
    return ms;
  }

  private List<Double> plainRound() {
    PlainTurnLoop.Session s = plain.start();
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.turnsPerRound(); t++) {
      ms.add(plain.timedTurn(s, TurnTexts.text(t)));
    }
    return ms;
  }
}
