package cp.faults;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * Test-only: named points where a worker can be made to stop, so a test can SIGKILL it exactly there.
 *
 * <p>Off by default, and then every call is one volatile read. {@code cpctl worker} turns it on
 * only when its environment has {@code CP_FAULT_PAUSE}, a variable no deployment sets:
 * <ul>
 *   <li>{@code CP_FAULT_PAUSE=<point>[,<point>...]}: the first time this process reaches a named
 *       point it prints {@code cp-fault: paused at <point>} on the worker's stdout and blocks that
 *       thread for good (until the process is killed);
 *   <li>{@code CP_FAULT_PAUSE=none}: pause nowhere, only trace.
 * </ul>
 * While on, every point passed prints {@code cp-fault: at <point>}, so a test can count how often
 * work ran in each process (a tool that ran twice shows two {@code at tool-call} lines).
 *
 * <p>Points: {@link #TOOL_CALL} (a tool is about to run inside its activity),
 * {@link #ATTENTION} (attention has read the ledgers and not yet written ATTENTION_ASSEMBLED),
 * {@code ledger-written:<EVENT_TYPE>} (the entry's line is on disk but the append is not yet
 * acknowledged: head not updated, caller not returned) and {@code ledger-torn:<EVENT_TYPE>}
 * (only the first half of the line is on disk: a torn write).
 */
public final class FaultPoints {
  /** The only switch. */
  public static final String ENV = "CP_FAULT_PAUSE";
  /** Value that traces without pausing. */
  public static final String NONE = "none";
  public static final String TOOL_CALL = "tool-call";
  public static final String ATTENTION = "attention";
  public static final String LEDGER_WRITTEN = "ledger-written";
  public static final String LEDGER_TORN = "ledger-torn";
  /** Prefix of every line this class prints. */
  public static final String MARKER = "cp-fault: ";

  private static final List<String> SIMPLE = List.of(TOOL_CALL, ATTENTION);
  private static final List<String> PER_EVENT = List.of(LEDGER_WRITTEN, LEDGER_TORN);
  private static final String EVENT_TYPE = "[A-Z][A-Z0-9_]*";

  /** What is on: nothing, or tracing to {@code out} with pauses at {@code pauseAt}. */
  private record Config(PrintStream out, Set<String> pauseAt, Set<String> paused) {}

  private static volatile Config config;

  private FaultPoints() {}

  /**
   * Turns fault points on when {@code env} has {@link #ENV}; prints to {@code out}.
   *
   * @throws IllegalArgumentException naming the variable when its value names no known point
   */
  public static void configure(Map<String, String> env, PrintStream out) {
    String raw = env.get(ENV);
    if (raw == null || raw.isBlank()) {
      config = null;
      return;
    }
    Set<String> points = ConcurrentHashMap.newKeySet();
    for (String p : raw.split(",")) {
      String point = p.strip();
      if (point.equalsIgnoreCase(NONE)) {
        continue;
      }
      if (!known(point)) {
        throw new IllegalArgumentException(ENV + "='" + raw + "': '" + point + "' is not a fault point (known: "
            + String.join(", ", SIMPLE) + ", " + LEDGER_WRITTEN + ":<EVENT_TYPE>, " + LEDGER_TORN
            + ":<EVENT_TYPE>, or " + NONE + "); this variable is for tests only");
      }
      points.add(point);
    }
    config = new Config(out, Set.copyOf(points), ConcurrentHashMap.newKeySet());
    out.println(MARKER + "fault injection on (" + ENV + "=" + raw.strip() + "): test use only");
    out.flush();
  }

  /** Turns fault points off (tests that configured them in-process). */
  public static void disable() {
    config = null;
  }

  private static boolean known(String point) {
    if (SIMPLE.contains(point)) {
      return true;
    }
    int colon = point.indexOf(':');
    return colon > 0 && PER_EVENT.contains(point.substring(0, colon))
        && point.substring(colon + 1).matches(EVENT_TYPE);
  }

  /** The name of a per-event point, e.g. {@code ledger-written:TOOL_CALL}. */
  public static String of(String point, String eventType) {
    return point + ":" + (eventType == null ? "" : eventType.toUpperCase(Locale.ROOT));
  }

  /** Passes a point: traces it, and pauses for good if it is the first arrival at a configured point. */
  public static void at(String point) {
    if (armed(point)) {
      pause(point);
    }
  }

  /**
   * True exactly once per process for a configured point: the caller then sets the fault up (for
   * example writes half a line) and calls {@link #pause}. Traces the point when on.
   */
  public static boolean armed(String point) {
    Config c = config;
    if (c == null) {
      return false;
    }
    trace(c, "at " + point);
    return claim(c, point);
  }

  /** Prints the pause marker and blocks this thread until the process dies. */
  public static void pause(String point) {
    Config c = config;
    if (c != null) {
      trace(c, "paused at " + point);
    }
    CountDownLatch never = new CountDownLatch(1);
    while (true) {
      try {
        never.await();
      } catch (InterruptedException e) {
        // Stay paused: the test kills this process here; going on would defeat the fault.
      }
    }
  }

  private static boolean claim(Config c, String point) {
    return c.pauseAt().contains(point) && c.paused().add(point);
  }

  private static void trace(Config c, String line) {
    synchronized (c.out()) {
      c.out().println(MARKER + line);
      c.out().flush();
    }
  }
}
