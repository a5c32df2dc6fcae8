package cp.bench;

import cp.gateway.PostgresTenantCounters;
import cp.gateway.TenantCaps;
import cp.gateway.TenantCounters;
import cp.ledger.LedgerDatabase;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * P9 (issue 23): what the tenant caps cost. First P1 twice in one run, three sides interleaved on
 * one plane: turns of a tenant with no cap, turns of a capped tenant (every call reserves and
 * settles in the plane's tenant counters, and the session asks its tenant's room before each turn),
 * and the plain loop; printed as each side's P1 and capped ÷ uncapped. Then the PostgreSQL
 * counters alone: one reservation and its settlement per call, as the gateway makes them, timed
 * call by call against a fresh tenant and against a tenant that already has a busy month of calls
 * (the reservation sums the tenant's month).
 */
final class SpendBench {
  /** The capped tenant of the turn measure: caps far above what the bench spends, so no turn is refused. */
  static final String CAPPED = "p9-capped";
  /** Issue 23: a PostgreSQL reservation and its settlement may cost at most 2 ms a call. */
  static final double PG_TARGET_MS = 2.0;
  /**
   * A busy tenant's month before the second PostgreSQL measure, in timed calls: 25 × 200 = 5,000 calls
   * by default (~170 a day), the reservation's sum then reading 5,000 rows of the month.
   */
  static final int MONTH_FACTOR = 25;
  /** Untimed calls before each PostgreSQL measure, in timed calls: connection pool, JIT, the server's plan cache. */
  static final int WARMUP_DIVISOR = 4;

  private final Map<String, String> callerEnv;
  private final Map<String, String> planeEnv;
  private final Map<String, String> plainEnv;
  private final BenchOptions o;

  SpendBench(Map<String, String> callerEnv, Map<String, String> planeEnv, Map<String, String> plainEnv,
      BenchOptions o) {
    this.callerEnv = callerEnv;
    this.planeEnv = planeEnv;
    this.plainEnv = plainEnv;
    this.o = o;
  }

  List<Measure> run(java.util.function.Consumer<String> step) throws Exception {
    List<Measure> out = new ArrayList<>(turns());
    step.accept("P9: a PostgreSQL reservation and its settlement per call");
    out.addAll(postgres());
    return out;
  }

  // ------------------------------------------------------------------ P1 with and without a capped tenant

  private List<Measure> turns() throws Exception {
    Path home = Path.of(planeEnv.get("CP_HOME"));
    Files.createDirectories(home);
    Path tenants = Files.writeString(home.resolve("tenants.json"), "{\"tenants\": {\"" + CAPPED
        + "\": {\"daily_usd\": 1000000.0, \"monthly_usd\": 10000000.0}}}");
    Map<String, String> env = new java.util.HashMap<>(planeEnv);
    env.put("CP_TENANTS_FILE", tenants.toString());
    // The fake model's price, unless the caller's table has one: a capped tenant's call needs a price.
    env.putIfAbsent("CP_PRICE_INPUT_PER_MTOK", "3.0");
    env.putIfAbsent("CP_PRICE_OUTPUT_PER_MTOK", "15.0");
    try (OrchestratedPlane plane = OrchestratedPlane.open(env);
        PlaneRuntime plainRuntime = PlaneRuntime.open(PlaneConfig.fromEnv(plainEnv))) {
      PlainTurnLoop plain = new PlainTurnLoop(plainRuntime, TurnLatencyBench.AGENT);
      TurnLatencyBench.warmUp(plane, plain, o.warmupTurns());
      String warm = plane.client.startSession(TurnLatencyBench.AGENT, CAPPED);
      for (int t = 1; t <= Math.min(TurnLatencyBench.WARMUP_SESSION_TURNS, o.warmupTurns()); t++) {
        plane.timedTurn(warm, TurnTexts.text(t));
      }
      plane.client.end(warm);
      Interleaved.Result r = Interleaved.run(o.rounds(), List.of(
          round -> session(plane, null), round -> session(plane, CAPPED), round -> plainSession(plain)));
      double uncapped = r.median(0) / r.median(2);
      double capped = r.median(1) / r.median(2);
      String store = plane.config.ledgers().database() != null ? "PostgreSQL counters (CP_LEDGER_URL)"
          : "JSONL counters (CP_HOME/spend/tenant-counters.jsonl)";
      String detail = String.format(Locale.ROOT, "L=%d ms, %d rounds x %d turns a side, one plane; no caps p50 %.1f"
          + " ms, capped tenant p50 %.1f ms (%s; every call reserved and settled, each turn's tenant check), plain"
          + " loop p50 %.1f ms", o.latency().toMillis(), o.rounds(), o.turnsPerRound(), r.median(0), r.median(1),
          store, r.median(2));
      return List.of(
          Measure.info(Measure.Id.P9, "P1 turn latency p50 ÷ plain loop, no tenant caps", Measure.ratio(uncapped),
              detail),
          Measure.info(Measure.Id.P9, "P1 turn latency p50 ÷ plain loop, a capped tenant", Measure.ratio(capped),
              "the same run, interleaved"),
          Measure.info(Measure.Id.P9, "turn latency p50, capped tenant ÷ no caps", Measure.ratio(capped / uncapped),
              "what the tenant caps add to a turn (issue 23: within the noise of P1)"));
    }
  }

  private List<Double> session(OrchestratedPlane plane, String tenant) {
    String sid = tenant == null ? plane.client.startSession(TurnLatencyBench.AGENT)
        : plane.client.startSession(TurnLatencyBench.AGENT, tenant);
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.turnsPerRound(); t++) {
      ms.add(plane.timedTurn(sid, TurnTexts.text(t)));
    }
    plane.client.end(sid);
    return ms;
  }

  private List<Double> plainSession(PlainTurnLoop plain) {
    PlainTurnLoop.Session s = plain.start();
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.turnsPerRound(); t++) {
      ms.add(plain.timedTurn(s, TurnTexts.text(t)));
    }
    return ms;
  }

  // ------------------------------------------------------------------ the PostgreSQL counters alone

  private List<Measure> postgres() {
    Optional<LedgerDatabase> ledger = LedgerDatabase.fromEnv(callerEnv);
    if (ledger.isPresent()) {
      // The operator's own database: a fresh tenant's calls only (settled at $0, so no tenant's spend
      // changes), never a seeded month in someone's counters.
      try (PostgresTenantCounters counters = PostgresTenantCounters.open(ledger.get())) {
        String where = "CP_LEDGER_URL " + LedgerDatabase.redactUrl(ledger.get().url());
        return List.of(pgMeasure(counters, tenant(), "a fresh tenant", where + "; its " + (warmupCalls() + o.spendCalls())
            + " rows stay there under tenant cp-bench-p9-*, settled at $0"));
      }
    }
    try (BenchPostgres pg = BenchPostgres.start(callerEnv);
        PostgresTenantCounters counters = PostgresTenantCounters.open(pg.freshDatabase("spend"))) {
      String tenant = tenant();
      Measure fresh = pgMeasure(counters, tenant, "a fresh tenant", pg.describe());
      int month = MONTH_FACTOR * o.spendCalls();
      for (int i = 0; i < month; i++) {
        call(counters, tenant, "month-" + i);
      }
      Measure busy = pgMeasure(counters, tenant, "a tenant with " + String.format(Locale.ROOT, "%,d", month)
          + " calls this month", pg.describe());
      return List.of(fresh, busy);
    }
  }

  private static String tenant() {
    return "cp-bench-p9-" + Long.toHexString(System.nanoTime());
  }

  private int warmupCalls() {
    return Math.max(1, o.spendCalls() / WARMUP_DIVISOR);
  }

  private Measure pgMeasure(TenantCounters counters, String tenant, String which, String where) {
    String prefix = "t" + Long.toHexString(System.nanoTime()) + "-";
    for (int i = 0; i < warmupCalls(); i++) {
      call(counters, tenant, prefix + "warm-" + i);
    }
    List<Double> ms = new ArrayList<>(o.spendCalls());
    for (int i = 0; i < o.spendCalls(); i++) {
      long start = System.nanoTime();
      call(counters, tenant, prefix + i);
      ms.add(Stats.millisSince(start));
    }
    double p50 = Stats.median(ms);
    double p95 = Stats.percentile(ms, 95);
    return Measure.target(Measure.Id.P9, "PostgreSQL reservation + settlement per call, " + which,
        String.format(Locale.ROOT, "%.2f ms (p95 %.2f ms)", p50, p95), "≤ " + PG_TARGET_MS + " ms",
        p50 <= PG_TARGET_MS, String.format(Locale.ROOT, "%s; %d calls one after the other, each a reservation"
            + " transaction (lock the tenant's row, sum its day and month, insert) and its settlement (update),"
            + " as the gateway makes them; median (p95) of single calls", where, o.spendCalls()));
  }

  /** One call's reservation and settlement, at about what a small call reserves and costs. */
  private static void call(TenantCounters counters, String tenant, String key) {
    Instant now = Instant.now();
    TenantCounters.Decision d = counters.reserve(tenant, CAPS, key, RESERVED_USD, now, now.plus(EXPIRY));
    if (!d.granted()) {
      throw new IllegalStateException("P9: the bench tenant's reservation was refused (" + d.level() + ")");
    }
    counters.settle(key, 0.0);
  }

  /** Caps no bench run reaches (the reservations are summed, the settlements are $0). */
  private static final TenantCaps.Caps CAPS = new TenantCaps.Caps(Optional.of(1_000_000.0), Optional.of(10_000_000.0));
  /** About a small call's worst case: ~1,000 prompt tokens and 1,024 max_tokens at $3/$15 per million. */
  private static final double RESERVED_USD = 0.018;
  /** As the gateway's expiry: the longest an LLM call may run. */
  private static final Duration EXPIRY = Duration.ofMinutes(10);
}
