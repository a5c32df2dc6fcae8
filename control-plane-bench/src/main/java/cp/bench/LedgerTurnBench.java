package cp.bench;

import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderFactory;
import cp.ledger.Durability;
import cp.model.PromptRequest;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * P4, second half: what the ledgers cost a turn. The plain loop (every tier at one durability
 * policy) ÷ a loop that sends the very same provider requests and touches no ledger at all, at
 * latency L. The difference is everything a turn does besides waiting for the model: ledger
 * reads and writes, attention, rendering, validation, the gateway's bookkeeping.
 */
final class LedgerTurnBench {
  static final double BATCHED_TARGET = 1.10;
  static final List<Durability> POLICIES = List.of(Durability.BATCHED, Durability.FSYNC_EACH, Durability.NONE);

  private final Map<String, String> callerEnv;
  private final FakeAnthropicServer fake;
  private final Path home;
  private final BenchOptions o;
  private final List<PlaneRuntime> runtimes = new ArrayList<>();
  private final BenchPostgres postgres;

  /** {@code postgres}: also measure the PostgreSQL store there (null: the JSONL files only). */
  LedgerTurnBench(Map<String, String> callerEnv, FakeAnthropicServer fake, Path home, BenchOptions o,
      BenchPostgres postgres) {
    this.callerEnv = callerEnv;
    this.fake = fake;
    this.home = home;
    this.o = o;
    this.postgres = postgres;
  }

  List<Measure> run() throws Exception {
    try {
      List<PlainTurnLoop> loops = new ArrayList<>();
      RecordingProvider recorder = null;
      for (Durability d : POLICIES) {
        Map<String, String> env = BenchEnv.with(BenchEnv.of(callerEnv, home.resolve(d.name().toLowerCase(Locale.ROOT)),
            fake.baseUrl(), "cp-bench-p4"), "CP_LEDGER_DURABILITY", d.name().toLowerCase(Locale.ROOT));
        PlaneConfig config = PlaneConfig.fromEnv(env);
        RecordingProvider provider = new RecordingProvider(new ProviderFactory(OfflineProvider::new).create(
            config.provider()));
        recorder = recorder == null ? provider : recorder;
        PlaneRuntime runtime = PlaneRuntime.open(config, provider, PlaneRuntime::builtinTools, Clock.systemUTC());
        runtimes.add(runtime);
        loops.add(new PlainTurnLoop(runtime, TurnLatencyBench.AGENT));
      }
      if (postgres != null) {
        // The PostgreSQL store with the default policies (its commits are durable: synchronous_commit).
        Map<String, String> env = new java.util.HashMap<>(BenchEnv.of(callerEnv, home.resolve("postgresql"),
            fake.baseUrl(), "cp-bench-p4"));
        env.putAll(envOf(postgres.freshDatabase("p4_turns")));
        PlaneConfig config = PlaneConfig.fromEnv(env);
        PlaneRuntime runtime = PlaneRuntime.open(config, new RecordingProvider(new ProviderFactory(OfflineProvider::new)
            .create(config.provider())), PlaneRuntime::builtinTools, Clock.systemUTC());
        runtimes.add(runtime);
        loops.add(new PlainTurnLoop(runtime, TurnLatencyBench.AGENT));
      }
      int perTurn = o.toolRound() ? 3 : 2;
      for (PlainTurnLoop loop : loops) {
        PlainTurnLoop.Session s = loop.start();
        for (int t = 1; t <= Math.max(1, o.warmupTurns()); t++) {
          loop.timedTurn(s, TurnTexts.text(t));
        }
      }
      List<PromptRequest> turn = recorder.last(perTurn);
      LlmProvider bare = recorder.delegate();
      List<Interleaved.Side> sides = new ArrayList<>();
      sides.add(round -> providerOnly(bare, turn));
      for (PlainTurnLoop loop : loops) {
        sides.add(round -> plainRound(loop));
      }
      Interleaved.Result r = Interleaved.run(o.rounds(), sides);
      List<Measure> out = new ArrayList<>();
      for (int i = 0; i < POLICIES.size(); i++) {
        Durability d = POLICIES.get(i);
        double ratio = r.median(i + 1) / r.median(0);
        String what = "turn latency, ledgers " + LedgerBench.name(d) + " ÷ no ledger";
        String detail = String.format(Locale.ROOT, "L=%d ms, %d rounds x %d turns a side; p50 %.1f ms with the"
            + " ledgers vs %.1f ms for the same %d provider calls alone", o.latency().toMillis(), o.rounds(),
            o.ledgerTurns(), r.median(i + 1), r.median(0), perTurn);
        out.add(d == Durability.BATCHED
            ? Measure.target(Measure.Id.P4, what, Measure.ratio(ratio), "≤ " + BATCHED_TARGET, ratio <= BATCHED_TARGET,
                detail)
            : Measure.info(Measure.Id.P4, what, Measure.ratio(ratio), detail));
      }
      if (postgres != null) {
        int i = POLICIES.size() + 1;
        double ratio = r.median(i) / r.median(0);
        out.add(Measure.target(Measure.Id.P4, "turn latency, ledgers PostgreSQL ÷ no ledger", Measure.ratio(ratio),
            "≤ " + BATCHED_TARGET, ratio <= BATCHED_TARGET, String.format(Locale.ROOT, "L=%d ms, %d rounds x %d turns"
            + " a side; p50 %.1f ms with the ledgers in %s vs %.1f ms for the same %d provider calls alone",
            o.latency().toMillis(), o.rounds(), o.ledgerTurns(), r.median(i), postgres.describe(), r.median(0),
            perTurn)));
      }
      return out;
    } finally {
      runtimes.forEach(PlaneRuntime::close);
    }
  }

  private static Map<String, String> envOf(cp.ledger.LedgerDatabase db) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put(cp.ledger.LedgerDatabase.URL_VARIABLE, db.url());
    if (db.user() != null) {
      env.put(cp.ledger.LedgerDatabase.USER_VARIABLE, db.user());
    }
    if (db.password() != null) {
      env.put(cp.ledger.LedgerDatabase.PASSWORD_VARIABLE, db.password());
    }
    return env;
  }

  private List<Double> plainRound(PlainTurnLoop loop) {
    PlainTurnLoop.Session s = loop.start();
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.ledgerTurns(); t++) {
      ms.add(loop.timedTurn(s, TurnTexts.text(t)));
    }
    return ms;
  }

  private List<Double> providerOnly(LlmProvider provider, List<PromptRequest> turn) throws Exception {
    List<Double> ms = new ArrayList<>();
    for (int t = 1; t <= o.ledgerTurns(); t++) {
      long start = System.nanoTime();
      for (PromptRequest request : turn) {
        provider.send(request);
      }
      ms.add(Stats.millisSince(start));
    }
    return ms;
  }
}
