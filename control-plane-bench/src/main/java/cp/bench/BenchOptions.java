package cp.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code cpctl bench} runs: latencies of the fake provider, how many rounds and turns, and
 * where results go. The defaults are the settings; {@link #smoke()} is the tiny run the
 * test suite uses to check that the benchmark works, not that it is fast.
 *
 * @param latency the fake provider's latency for turn measures (P1, P3, P4, P6)
 * @param gatewayLatency the fake provider's latency for the gateway measure (P2)
 * @param rounds interleaved rounds of P1, P2 and P4
 * @param turnsPerRound turns per side per round in P1
 * @param warmupTurns untimed turns per side before P1, P3 and P4 (JIT, connection pools)
 * @param gatewayCalls calls per side per round in P2
 * @param sessions concurrent sessions (and plain-loop threads) in P3
 * @param sessionTurns turns each P3 session runs per round
 * @param throughputRounds interleaved rounds of P3
 * @param ledgerAppends appends per durability policy in P4
 * @param ledgerTurns turns per side per round in P4's turn ratio
 * @param crashRuns worker kills in P6
 * @param heapTurns turns before the heap is measured
 * @param toolRound whether each synthesize work order first asks for one tool (3 rounds a turn)
 * @param chatTurns turns of each B7 chat
 * @param chatRuns B7 chat processes (each a fresh JVM)
 * @param spendCalls timed calls of each PostgreSQL measure of P9 (its busy tenant first makes
 *     {@link SpendBench#MONTH_FACTOR} times as many)
 * @param cpctl the command that starts cpctl for B7 ({@code bin/cpctl}); empty: B7 cannot run
 * @param only the measures to run (empty: all)
 * @param home where the benchmark's plane roots go (deleted first)
 * @param out the results file
 */
public record BenchOptions(
    Duration latency,
    Duration gatewayLatency,
    int rounds,
    int turnsPerRound,
    int warmupTurns,
    int gatewayCalls,
    int sessions,
    int sessionTurns,
    int throughputRounds,
    int ledgerAppends,
    int ledgerTurns,
    int crashRuns,
    int heapTurns,
    boolean toolRound,
    int chatTurns,
    int chatRuns,
    int spendCalls,
    List<String> cpctl,
    Set<Measure.Id> only,
    Path home,
    Path out) {

  public static final Duration DEFAULT_LATENCY = Duration.ofMillis(200);
  public static final Duration DEFAULT_GATEWAY_LATENCY = Duration.ofMillis(20);
  public static final Path DEFAULT_HOME = Path.of("target", "bench-home");
  /** Enough turns a side for the JIT to compile the SDK's, the service's and the plane's hot paths. */
  public static final int DEFAULT_WARMUP_TURNS = 30;
  public static final Path DEFAULT_OUT = Path.of("target", "bench-results.md");
  /** Issue 21's B7: an 8-turn chat. */
  public static final int DEFAULT_CHAT_TURNS = 8;
  /** Fresh chat processes in B7: the median of three is steadier than one. */
  public static final int DEFAULT_CHAT_RUNS = 3;
  /** P9: 200 single calls a measure, so its p95 rests on 10 calls above it. */
  public static final int DEFAULT_SPEND_CALLS = 200;

  public BenchOptions {
    positive("rounds", rounds);
    positive("turns per round", turnsPerRound);
    positive("gateway calls", gatewayCalls);
    positive("sessions", sessions);
    positive("session turns", sessionTurns);
    positive("throughput rounds", throughputRounds);
    positive("ledger appends", ledgerAppends);
    positive("ledger turns", ledgerTurns);
    positive("crash runs", crashRuns);
    positive("heap turns", heapTurns);
    positive("chat turns", chatTurns);
    positive("chat runs", chatRuns);
    positive("spend calls", spendCalls);
    cpctl = cpctl == null ? List.of() : List.copyOf(cpctl);
    if (warmupTurns < 0) {
      throw new IllegalArgumentException("warm-up turns must be >= 0, was " + warmupTurns);
    }
    if (latency.isNegative() || gatewayLatency.isNegative()) {
      throw new IllegalArgumentException("latencies must be >= 0 ms");
    }
    only = only == null || only.isEmpty() ? EnumSet.allOf(Measure.Id.class) : EnumSet.copyOf(only);
  }

  /** The settings. */
  public static BenchOptions defaults() {
    return new BenchOptions(DEFAULT_LATENCY, DEFAULT_GATEWAY_LATENCY, 5, 20, DEFAULT_WARMUP_TURNS, 100, 100, 3, 3, 2000, 10, 3, 1000,
        false, DEFAULT_CHAT_TURNS, DEFAULT_CHAT_RUNS, DEFAULT_SPEND_CALLS, List.of(), Set.of(), DEFAULT_HOME, DEFAULT_OUT);
  }

  /**
   * A run that finishes in seconds: it proves every measure runs and reports, nothing about speed.
   * B7 runs when {@code cpctl} names a way to start cpctl (a test gives its own classpath's).
   */
  public static BenchOptions smoke(Path home, Path out, List<String> cpctl) {
    return new BenchOptions(Duration.ofMillis(1), Duration.ofMillis(1), 1, 2, 1, 5, 3, 1, 1, 50, 1, 1, 10, false,
        3, 1, 4, cpctl, Set.of(), home, out);
  }

  /** This run with only {@code ids}. */
  public BenchOptions only(Set<Measure.Id> ids) {
    return new BenchOptions(latency, gatewayLatency, rounds, turnsPerRound, warmupTurns, gatewayCalls, sessions,
        sessionTurns, throughputRounds, ledgerAppends, ledgerTurns, crashRuns, heapTurns, toolRound, chatTurns, chatRuns,
        spendCalls, cpctl, ids, home, out);
  }

  public boolean runs(Measure.Id id) {
    return only.contains(id);
  }

  private static void positive(String what, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, was " + n);
    }
  }
}
