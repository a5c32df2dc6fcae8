package cp.cli;

import cp.bench.Bench;
import cp.bench.BenchOptions;
import cp.bench.BenchReport;
import cp.bench.Measure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cpctl bench}: the overhead benchmark (see {@link Bench}). Prints the table and writes it,
 * with the machine description, to the results file. Everything runs in this process against a
 * local fake provider; no key and no Temporal server are needed.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Measure the plane's overhead against a plain loop (P1-P7, heap), side by side in one run.")
final class BenchCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  private static final BenchOptions D = BenchOptions.defaults();

  @Option(names = "--latency-ms", description = "Fake provider latency for turn measures. Default: 200.")
  long latencyMs = D.latency().toMillis();

  @Option(names = "--gateway-latency-ms", description = "Fake provider latency for P2. Default: 20.")
  long gatewayLatencyMs = D.gatewayLatency().toMillis();

  @Option(names = "--rounds", description = "Interleaved rounds (P1, P2, P4). Default: 5.")
  int rounds = D.rounds();

  @Option(names = "--turns", description = "Turns per side per round (P1). Default: 20.")
  int turns = D.turnsPerRound();

  @Option(names = "--warmup", description = "Untimed warm-up turns per side. Default: 30.")
  int warmup = D.warmupTurns();

  @Option(names = "--gateway-calls", description = "Calls per side per round (P2). Default: 100.")
  int gatewayCalls = D.gatewayCalls();

  @Option(names = "--sessions", description = "Concurrent sessions / plain-loop threads (P3). Default: 100.")
  int sessions = D.sessions();

  @Option(names = "--session-turns", description = "Turns per session per round (P3). Default: 3.")
  int sessionTurns = D.sessionTurns();

  @Option(names = "--throughput-rounds", description = "Interleaved rounds of P3. Default: 3.")
  int throughputRounds = D.throughputRounds();

  @Option(names = "--appends", description = "Ledger appends per durability policy (P4). Default: 2000.")
  int appends = D.ledgerAppends();

  @Option(names = "--ledger-turns", description = "Turns per side per round (P4). Default: 10.")
  int ledgerTurns = D.ledgerTurns();

  @Option(names = "--crash-runs", description = "Worker kills (P6). Default: 3.")
  int crashRuns = D.crashRuns();

  @Option(names = "--heap-turns", description = "Turns before the heap is measured. Default: 1000.")
  int heapTurns = D.heapTurns();

  @Option(names = "--tool-round", description = "Each synthesize work order first calls one tool (3 LLM rounds a turn).")
  boolean toolRound;

  @Option(names = "--only", split = ",", description = "Run only these measures (P1..P7, HEAP), e.g. --only P1,P5.")
  List<String> only = List.of();

  @Option(names = "--home", description = "Scratch plane roots (deleted first). Default: target/bench-home.")
  Path home = D.home();

  @Option(names = {"--out", "-o"}, description = "Results file. Default: target/bench-results.md.")
  Path out = D.out();

  @Override
  public Integer call() throws Exception {
    Set<Measure.Id> ids = EnumSet.noneOf(Measure.Id.class);
    for (String s : only) {
      try {
        ids.add(Measure.Id.parse(s));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--only: unknown measure '" + s + "' (known: P1, P2, P3, P4, P5, P6, P7, HEAP)");
      }
    }
    BenchOptions o = new BenchOptions(Duration.ofMillis(latencyMs), Duration.ofMillis(gatewayLatencyMs), rounds, turns,
        warmup, gatewayCalls, sessions, sessionTurns, throughputRounds, appends, ledgerTurns, crashRuns, heapTurns,
        toolRound, ids, home, out);
    BenchReport report = Bench.run(o, env(), err());
    out().print(report.markdown());
    out().println();
    out().println("Written to " + out.toAbsolutePath());
    return Cpctl.OK;
  }
}
