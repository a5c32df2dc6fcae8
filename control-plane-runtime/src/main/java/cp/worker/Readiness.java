package cp.worker;

import cp.model.RootCause;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * Whether this worker can do work now, for {@code /readyz} (issue 20 §3): each named {@link Check}
 * runs on a timer thread every interval and the HTTP handler reads the last result, so a request
 * never touches Temporal or the ledger database itself.
 *
 * <p>Not ready when a check failed in the last round, when no round has finished yet, when the
 * last round finished longer ago than {@link #STALE_ROUNDS} intervals (a probe hangs: a database
 * that swallows packets blocks its connection attempt for its whole timeout), or once
 * {@link #draining()} was called (SIGTERM). Problems are passed through {@code scrub} before
 * anyone sees them (they may quote a URL or a server's error text).
 *
 * <p>Thread safety: {@link #status()} and {@link #draining()} may be called from any thread; the
 * checks run on the one timer thread, never concurrently with each other.
 */
public final class Readiness implements AutoCloseable {
  /**
   * How many intervals without a finished round make the last result stale: one interval is the
   * normal gap, a second absorbs a slow round, a third means a probe is stuck.
   */
  static final int STALE_ROUNDS = 3;

  /** One thing the worker needs; {@link #problem()} says what is wrong, empty when nothing is. */
  public interface Check {
    String name();

    /** What is wrong now, or empty; may throw (the exception's innermost message is the problem). */
    Optional<String> problem();

    static Check of(String name, java.util.function.Supplier<Optional<String>> probe) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(probe, "probe");
      return new Check() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public Optional<String> problem() {
          return probe.get();
        }
      };
    }
  }

  /** The answer {@code /readyz} gives: ready or not, and one line per check (or why there is no result). */
  public record Status(boolean ready, List<String> lines) {
    public Status {
      lines = List.copyOf(lines);
    }

    /** The lines, one per line of text. */
    public String text() {
      return String.join("\n", lines) + "\n";
    }
  }

  private record Round(long finishedNanos, boolean ok, List<String> lines) {}

  private final List<Check> checks;
  private final Duration interval;
  private final UnaryOperator<String> scrub;
  private final LongSupplier nanos;
  private final ScheduledExecutorService timer;
  private volatile Round last;
  private volatile boolean draining;

  Readiness(List<Check> checks, Duration interval, UnaryOperator<String> scrub, LongSupplier nanos) {
    this.checks = List.copyOf(checks);
    this.interval = Objects.requireNonNull(interval, "interval");
    this.scrub = Objects.requireNonNull(scrub, "scrub");
    this.nanos = Objects.requireNonNull(nanos, "nanos");
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "cp-readiness");
      t.setDaemon(true);
      return t;
    });
  }

  /** Probes {@code checks} now and then every {@code interval}. */
  public static Readiness start(List<Check> checks, Duration interval, UnaryOperator<String> scrub) {
    Readiness r = new Readiness(checks, interval, scrub, System::nanoTime);
    r.timer.scheduleWithFixedDelay(r::probe, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return r;
  }

  /** Runs every check once (the timer thread, or a test). */
  void probe() {
    boolean ok = true;
    List<String> lines = new ArrayList<>();
    for (Check c : checks) {
      Optional<String> problem;
      try {
        problem = c.problem();
      } catch (RuntimeException e) {
        problem = Optional.of(RootCause.innermostMessage(e));
      }
      ok &= problem.isEmpty();
      lines.add(c.name() + ": " + problem.map(p -> "FAIL " + scrub.apply(p)).orElse("ok"));
    }
    last = new Round(nanos.getAsLong(), ok, lines);
  }

  /** From now on not ready: the worker is stopping (it finishes what it holds, takes nothing new). */
  public void draining() {
    draining = true;
  }

  /** The last round's verdict, or not ready when there is none, it is stale, or the worker drains. */
  public Status status() {
    Round r = last;
    if (draining) {
      return new Status(false, List.of("draining: the worker is shutting down (SIGTERM) and takes no new work"));
    }
    if (r == null) {
      return new Status(false, List.of("starting: the first probe has not finished yet"));
    }
    long ageMillis = TimeUnit.NANOSECONDS.toMillis(nanos.getAsLong() - r.finishedNanos());
    if (ageMillis > STALE_ROUNDS * interval.toMillis()) {
      List<String> lines = new ArrayList<>();
      lines.add("stale: the probes have not finished for " + ageMillis + " ms (one is stuck: an unreachable"
          + " service or database); the last result was:");
      lines.addAll(r.lines());
      return new Status(false, lines);
    }
    return new Status(r.ok(), r.lines());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
