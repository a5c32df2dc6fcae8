package cp.bench;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cpctl bench}: the overhead benchmark (see {@link Bench}), the main class of the bench's own
 * jar ({@code control-plane-bench/target/control-plane-bench.jar}, outside the product; {@code
 * bin/cpctl bench} runs it). Prints the table and writes it, with the machine description, to the
 * results file. Everything runs in this process against a local fake provider; no key and no
 * Temporal server are needed.
 */
@Command(name = "cpctl bench", mixinStandardHelpOptions = true,
    description = "Measure the plane's overhead against a plain loop (P1-P6, heap) and an MCP tool call through the"
        + " plane against the same call made directly (P7), side by side in one run, and a black-box cpctl chat"
        + " process (B7).")
public final class BenchCommand implements java.util.concurrent.Callable<Integer> {
  /** Exit codes as cpctl's: 0 done, 1 the benchmark failed, 2 bad usage. */
  static final int OK = 0;
  static final int FAILED = 1;
  static final int BAD_INPUT = 2;
  /** Where bin/cpctl tells the benchmark how it was started, so B7 starts 'cpctl chat' the same way. */
  static final String CPCTL_ENV = "CP_BENCH_CPCTL";

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

  @Option(names = "--chat-turns", description = "Turns of each B7 chat. Default: 8.")
  int chatTurns = D.chatTurns();

  @Option(names = "--chat-runs", description = "B7 chat processes (a fresh JVM each). Default: 3.")
  int chatRuns = D.chatRuns();

  @Option(names = "--spend-calls", description = "Timed calls of each PostgreSQL measure of P9. Default: 200.")
  int spendCalls = D.spendCalls();

  @Option(names = "--cpctl", paramLabel = "PATH", description = "How B7 starts cpctl. Default: $CP_BENCH_CPCTL"
      + " (bin/cpctl sets it to itself).")
  String cpctl;

  @Option(names = "--only", split = ",", description = "Run only these measures (P1..P9, B7, HEAP), e.g. --only P1,B7.")
  List<String> only = List.of();

  @Option(names = "--home", description = "Scratch plane roots (deleted first). Default: target/bench-home.")
  Path home = D.home();

  @Option(names = {"--out", "-o"}, description = "Results file. Default: target/bench-results.md.")
  Path out = D.out();

  private final Map<String, String> env;
  private final PrintStream stdout;
  private final PrintStream progress;

  BenchCommand(Map<String, String> env, PrintStream stdout, PrintStream progress) {
    this.env = Map.copyOf(env);
    this.stdout = stdout;
    this.progress = progress;
  }

  public static void main(String[] args) {
    int code = run(args, System.getenv(), System.out, System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs the benchmark command line with an explicit environment and streams. */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new BenchCommand(env, out, err));
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("cpctl bench: " + ex.getMessage() + " (see 'cpctl bench --help')");
      return BAD_INPUT;
    });
    cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
      err.println("cpctl bench: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      if (!(ex instanceof IllegalArgumentException)) {
        ex.printStackTrace(err);
      }
      return ex instanceof IllegalArgumentException ? BAD_INPUT : FAILED;
    });
    return cl.execute(args);
  }

  /** B7's cpctl: --cpctl, else what bin/cpctl put in CP_BENCH_CPCTL; empty when neither. */
  private List<String> launcher() {
    String c = cpctl != null ? cpctl : env.get(CPCTL_ENV);
    return c == null || c.isBlank() ? List.of() : List.of(c);
  }

  @Override
  public Integer call() throws Exception {
    Set<Measure.Id> ids = EnumSet.noneOf(Measure.Id.class);
    for (String s : only) {
      try {
        ids.add(Measure.Id.parse(s));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--only: unknown measure '" + s + "' (known: P1, P2, P3, P4, P5, P6, P7, P8, P9,"
            + " B7, HEAP)");
      }
    }
    BenchOptions o = new BenchOptions(Duration.ofMillis(latencyMs), Duration.ofMillis(gatewayLatencyMs), rounds, turns,
        warmup, gatewayCalls, sessions, sessionTurns, throughputRounds, appends, ledgerTurns, crashRuns, heapTurns,
        toolRound, chatTurns, chatRuns, spendCalls, launcher(), ids, home, out);
    BenchReport report = Bench.run(o, env, progress);
    stdout.print(report.markdown());
    stdout.println();
    stdout.println("Written to " + out.toAbsolutePath());
    return OK;
  }
}
