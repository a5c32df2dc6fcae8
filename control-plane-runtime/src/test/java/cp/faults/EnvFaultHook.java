package cp.faults;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The fault hook {@code CP_FAULT_PAUSE} asks for (tests only; installed through {@link
 * EnvFaultHook.Factory}, registered in {@code META-INF/services} on the test classpath):
 * <ul>
 *   <li>{@code CP_FAULT_PAUSE=<point>[,<point>...]}: the first time this process reaches a named
 *       point it prints {@code cp-fault: paused at <point>} and blocks that thread for good
 *       (until the process is killed);
 *   <li>{@code CP_FAULT_PAUSE=none}: pause nowhere, only trace.
 * </ul>
 * Every point passed prints {@code cp-fault: at <point>}, so a test can count how often work ran
 * in each process (a tool that ran twice shows two {@code at tool-call} lines).
 */
public final class EnvFaultHook implements FaultHook {
  private static final List<String> SIMPLE = List.of(FaultPoints.TOOL_CALL, FaultPoints.ATTENTION);
  private static final List<String> PER_EVENT = List.of(FaultPoints.LEDGER_WRITTEN, FaultPoints.LEDGER_TORN);
  private static final String EVENT_TYPE = "[A-Z][A-Z0-9_]*";

  private final PrintStream out;
  private final Set<String> pauseAt;
  private final Set<String> paused = ConcurrentHashMap.newKeySet();

  /** Registered with ServiceLoader: what cpctl worker finds on the test classpath. */
  public static final class Factory implements FaultHookFactory {
    @Override
    public FaultHook create(String value, PrintStream out) {
      return EnvFaultHook.parse(value, out);
    }
  }

  private EnvFaultHook(PrintStream out, Set<String> pauseAt) {
    this.out = out;
    this.pauseAt = Set.copyOf(pauseAt);
  }

  /**
   * The hook for a {@code CP_FAULT_PAUSE} value; prints that fault injection is on.
   *
   * @throws IllegalArgumentException naming the variable when the value names no known point
   */
  static EnvFaultHook parse(String raw, PrintStream out) {
    Set<String> points = ConcurrentHashMap.newKeySet();
    for (String p : raw.split(",")) {
      String point = p.strip();
      if (point.equalsIgnoreCase(FaultPoints.NONE)) {
        continue;
      }
      if (!known(point)) {
        throw new IllegalArgumentException(FaultPoints.ENV + "='" + raw + "': '" + point + "' is not a fault point"
            + " (known: " + String.join(", ", SIMPLE) + ", " + FaultPoints.LEDGER_WRITTEN + ":<EVENT_TYPE>, "
            + FaultPoints.LEDGER_TORN + ":<EVENT_TYPE>, or " + FaultPoints.NONE + "); this variable is for tests only");
      }
      points.add(point);
    }
    EnvFaultHook hook = new EnvFaultHook(out, points);
    hook.trace("fault injection on (" + FaultPoints.ENV + "=" + raw.strip() + "): test use only");
    return hook;
  }

  private static boolean known(String point) {
    if (SIMPLE.contains(point)) {
      return true;
    }
    int colon = point.indexOf(':');
    return colon > 0 && PER_EVENT.contains(point.substring(0, colon))
        && point.substring(colon + 1).matches(EVENT_TYPE);
  }

  @Override
  public void at(String point) {
    if (armed(point)) {
      pause(point);
    }
  }

  /** True exactly once per process for a configured point; traces every point. */
  @Override
  public boolean armed(String point) {
    trace("at " + point);
    return pauseAt.contains(point) && paused.add(point);
  }

  /** Prints the pause marker and blocks this thread until the process dies. */
  @Override
  public void pause(String point) {
    trace("paused at " + point);
    CountDownLatch never = new CountDownLatch(1);
    while (true) {
      try {
        never.await();
      } catch (InterruptedException e) {
        // Stay paused: the test kills this process here; going on would defeat the fault.
      }
    }
  }

  private void trace(String line) {
    synchronized (out) {
      out.println(FaultPoints.MARKER + line);
      out.flush();
    }
  }
}
