package cp.bench;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.model.EventType;
import cp.model.WorkOrderIds;
import cp.worker.PlaneConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * B7: a black-box chat. A separate {@code cpctl chat} process, started as a user starts it, reads
 * its turns from a pipe and talks to the fake provider (latency L) through its own embedded
 * service and worker. The span from the first turn written to the chat's stdin to the last
 * turn's footer on its stdout, ÷ (provider calls × L), is what a user waits for beyond the model.
 *
 * <p>Each run is a fresh process (a fresh JVM, as {@code bin/cpctl chat} gives a user). Its lines
 * are written at once, as {@code printf … | cpctl chat} would, once the chat's session has
 * started (SESSION_START in its HOT ledger), so the span holds the turns and not the JVM's or the
 * embedded service's start, which is reported on its own. The step table ({@link ChatTimeline})
 * comes from the chat's ledgers, the fake provider's request and response times and the footers'
 * arrival.
 */
final class ChatBench {
  static final String WHAT = "chat span ÷ (provider calls × L), a separate cpctl chat process, piped input";
  /** Issue 21's target; the goal is 1.05. */
  static final double TARGET = 1.15;
  /** How long a chat may take to start, or to finish its turns, before the run is called failed. */
  static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
  /** How often the chat's HOT ledger is looked at while it starts. */
  static final Duration READY_POLL = Duration.ofMillis(2);
  /** What a footer line begins with (TurnPrinter): "  [success · tokens …]". */
  static final String FOOTER = "  [";
  static final String AGENT = "ADMIN";

  private final BenchOptions o;
  private final Map<String, String> callerEnv;
  private final List<String> cpctl;

  ChatBench(BenchOptions o, Map<String, String> callerEnv) {
    this.o = o;
    this.callerEnv = callerEnv;
    this.cpctl = o.cpctl();
  }

  /** One chat run as seen from outside. */
  record Run(Duration startup, Instant sent, List<Instant> footers, List<ChatTimeline.Mark> marks,
      List<ChatTimeline.Call> calls) {}

  List<Measure> run() throws Exception {
    if (cpctl.isEmpty()) {
      return List.of(Measure.info(Measure.Id.B7, WHAT, "not run",
          "no cpctl launcher: run the benchmark with 'bin/cpctl bench', or pass --cpctl PATH"));
    }
    List<Run> runs = new ArrayList<>();
    try (FakeAnthropicServer fake = FakeAnthropicServer.start(o.latency(), false)) {
      for (int i = 1; i <= o.chatRuns(); i++) {
        runs.add(runOnce(fake, o.home().resolve("b7-run-" + i)));
      }
    }
    return measures(runs);
  }

  private List<Measure> measures(List<Run> runs) {
    List<Double> ratios = new ArrayList<>();
    List<ChatTimeline.Turn> turns = new ArrayList<>();
    List<ChatTimeline.Turn> turnOnes = new ArrayList<>();
    List<Double> firstTurns = new ArrayList<>();
    List<Double> laterTurns = new ArrayList<>();
    List<Double> startups = new ArrayList<>();
    int undecomposed = 0;
    int calls = 0;
    double lMs = o.latency().toNanos() / 1e6;
    for (Run r : runs) {
      startups.add(r.startup().toNanos() / 1e6);
      Instant end = r.footers().get(r.footers().size() - 1);
      calls = (int) r.calls().stream().filter(c -> !c.request().isBefore(r.sent()) && !c.response().isAfter(end))
          .count();
      ratios.add(ChatTimeline.millis(r.sent(), end) / (calls * lMs));
      for (int t = 1; t <= r.footers().size(); t++) {
        Instant sent = t == 1 ? r.sent() : r.footers().get(t - 2);
        Instant answered = r.footers().get(t - 1);
        (t == 1 ? firstTurns : laterTurns).add(ChatTimeline.millis(sent, answered));
        Optional<ChatTimeline.Turn> d = ChatTimeline.turn(t, sent, answered, r.marks(), r.calls());
        if (d.isPresent()) {
          turns.add(d.get());
          if (t == 1) {
            turnOnes.add(d.get());
          }
        } else {
          undecomposed++;
        }
      }
    }
    double ratio = Stats.median(ratios);
    List<Measure> out = new ArrayList<>();
    out.add(Measure.target(Measure.Id.B7, WHAT, Measure.ratio(ratio), "≤ " + TARGET, ratio <= TARGET,
        String.format(Locale.ROOT, "L=%d ms, %d chat process(es) × %d turns, %d provider calls a chat; median of"
            + " the runs' ratios (each: %s); turn 1 median %.0f ms, turns 2-%d median %.0f ms, provider time %.0f ms"
            + " a turn; chat start (process start → SESSION_START) median %.0f ms, not in the span; launcher: %s",
            o.latency().toMillis(), runs.size(), o.chatTurns(), calls, ratios.stream()
                .map(Measure::ratio).toList(), Stats.median(firstTurns), o.chatTurns(), Stats.median(laterTurns),
            2 * lMs, Stats.median(startups), String.join(" ", cpctl))));
    if (turns.isEmpty()) {
      out.add(Measure.info(Measure.Id.B7, "step table", "not available",
          undecomposed + " turns had no work-order chain in the ledgers to decompose"));
      return out;
    }
    out.addAll(stepTable(turns, undecomposed, "step: ", "every turn"));
    if (!turnOnes.isEmpty()) {
      // Turn 1 on its own: a fresh JVM's first use of each code path, which the median of the later turns hides.
      out.addAll(stepTable(turnOnes, 0, "turn 1 step: ", "turn 1"));
    }
    return out;
  }

  private static List<Measure> stepTable(List<ChatTimeline.Turn> turns, int undecomposed, String prefix,
      String which) {
    List<Measure> out = new ArrayList<>();
    Map<ChatTimeline.Step, Double> medians = ChatTimeline.medians(turns);
    Map<ChatTimeline.Step, Double> shares = ChatTimeline.shares(medians);
    for (ChatTimeline.Step s : ChatTimeline.Step.values()) {
      String value = s.overhead()
          ? String.format(Locale.ROOT, "%.1f ms (%.0f %%)", medians.get(s), 100 * shares.get(s))
          : String.format(Locale.ROOT, "%.1f ms", medians.get(s));
      out.add(Measure.info(Measure.Id.B7, prefix + s.what, value, String.format(Locale.ROOT,
          "median per turn over %d turns (%s, %d not decomposable); share of the overhead steps' medians",
          turns.size(), which, undecomposed)));
    }
    return out;
  }

  private Run runOnce(FakeAnthropicServer fake, Path home) throws Exception {
    Map<String, String> env = BenchEnv.of(callerEnv, home, fake.baseUrl(), "cp-bench-chat");
    // What a user's 'cpctl chat' gets: the embedded service and the JSONL ledgers under CP_HOME.
    env.remove("CP_LEDGER_URL");
    List<String> cmd = new ArrayList<>(cpctl);
    cmd.addAll(List.of("chat", "--agent", AGENT));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().keySet().removeIf(k -> k.startsWith("CP_") || k.startsWith("TEMPORAL_")
        || k.startsWith("ANTHROPIC_") || k.startsWith("OPENAI_") || k.startsWith("OTEL_"));
    pb.environment().putAll(env);
    Files.createDirectories(home);
    Path err = home.resolve("chat.err");
    pb.redirectError(err.toFile());
    int before = fake.calls().size();
    long spawned = System.nanoTime();
    Process p = pb.start();
    try {
      List<Instant> footers = new CopyOnWriteArrayList<>();
      List<String> lines = new CopyOnWriteArrayList<>();
      Thread reader = new Thread(() -> readFooters(p, footers, lines), "b7-chat-stdout");
      reader.setDaemon(true);
      reader.start();
      awaitSessionStart(p, home.resolve("HOT/ledger/governance.jsonl"), err);
      Duration startup = Duration.ofNanos(System.nanoTime() - spawned);
      StringBuilder input = new StringBuilder();
      for (int t = 1; t <= o.chatTurns(); t++) {
        input.append(TurnTexts.text(t)).append('\n');
      }
      Instant sent = Instant.now();
      try (OutputStream stdin = p.getOutputStream()) {
        stdin.write(input.toString().getBytes(StandardCharsets.UTF_8));
      }
      if (!p.waitFor(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("B7: cpctl chat did not finish " + o.chatTurns() + " turns within "
            + STEP_TIMEOUT.toSeconds() + " s" + tail(err));
      }
      reader.join(TimeUnit.SECONDS.toMillis(5));
      if (p.exitValue() != 0 || footers.size() != o.chatTurns()
          || lines.stream().filter(l -> l.startsWith(FOOTER)).anyMatch(l -> !l.startsWith(FOOTER + "success"))) {
        throw new IllegalStateException("B7: cpctl chat exited " + p.exitValue() + " with " + footers.size() + " of "
            + o.chatTurns() + " turns answered, or a turn did not succeed; its output:\n" + String.join("\n", lines)
            + tail(err));
      }
      List<ChatTimeline.Call> calls = fake.calls().subList(before, fake.calls().size()).stream()
          .map(c -> new ChatTimeline.Call(c.arrived(), c.replied())).toList();
      return new Run(startup, sent, List.copyOf(footers), marks(env), calls);
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static void readFooters(Process p, List<Instant> footers, List<String> lines) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        Instant at = Instant.now();
        lines.add(line);
        if (line.startsWith(FOOTER) && line.endsWith("]")) {
          footers.add(at);
        }
      }
    } catch (IOException e) {
      // The process ended; what was read is checked by the caller.
    }
  }

  /** Waits for SESSION_START in the chat's HOT ledger (read as a file: the chat owns the ledger). */
  private static void awaitSessionStart(Process p, Path hot, Path err) throws Exception {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(hot) && Files.readString(hot, StandardCharsets.UTF_8)
          .contains("\"" + EventType.SESSION_START.wire() + "\"")) {
        return;
      }
      if (!p.isAlive()) {
        throw new IllegalStateException("B7: cpctl chat exited " + p.exitValue() + " before its session started"
            + tail(err));
      }
      Thread.sleep(READY_POLL.toMillis());
    }
    throw new IllegalStateException("B7: cpctl chat did not start a session within " + STEP_TIMEOUT.toSeconds() + " s"
        + tail(err));
  }

  /** The step marks from the chat's ledgers, read after it exited. */
  private static List<ChatTimeline.Mark> marks(Map<String, String> env) {
    PlaneConfig cfg = PlaneConfig.fromEnv(env);
    List<ChatTimeline.Mark> marks = new ArrayList<>();
    try (Ledgers ledgers = new Ledgers(new PlaneLayout(cfg.home()), cfg.ledgers())) {
      for (EventType type : ChatTimeline.MARKS) {
        // HO2 plans and closes the chain; HO1 runs the work orders.
        LedgerStream stream = type == EventType.WO_EXECUTING || type == EventType.WO_COMPLETED ? ledgers.ho1()
            : ledgers.ho2(AGENT);
        for (LedgerEntry e : stream.byEventType(type.wire())) {
          String wo = e.workOrderId();
          var turnField = e.meta("turn");
          int turn = wo != null ? WorkOrderIds.turnOf(wo) : turnField == null ? -1 : turnField.asInt();
          marks.add(new ChatTimeline.Mark(Instant.parse(e.timestamp()), type, turn, wo));
        }
      }
    }
    return marks;
  }

  private static String tail(Path err) {
    try {
      String s = Files.readString(err, StandardCharsets.UTF_8);
      return s.isBlank() ? "" : "; its stderr ends:\n" + s.substring(Math.max(0, s.length() - 2000));
    } catch (IOException e) {
      return "";
    }
  }
}
