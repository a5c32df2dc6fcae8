package cp.faults;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The named points where a test may stop a worker so that it can SIGKILL it exactly there, and
 * {@link #hookFor} that makes the {@link FaultHook} a worker passes to what reaches them (the
 * activities and, through their {@code LedgerHooks}, the ledger stores take it as a collaborator;
 * issue 21: no process-wide hook).
 *
 * <p>Points: {@link #TOOL_CALL} (a tool is about to run inside its activity), {@link #ATTENTION}
 * (attention has read the ledgers and not yet written ATTENTION_ASSEMBLED),
 * {@code ledger-written:<EVENT_TYPE>} (the entry's line is on disk but the append is not yet
 * acknowledged: head not updated, caller not returned) and {@code ledger-torn:<EVENT_TYPE>}
 * (only the first half of the line is on disk: a torn write).
 *
 * <p>{@code cpctl worker} calls {@link #hookFor} with its environment: when {@code
 * CP_FAULT_PAUSE} is set, the hook comes from a {@link FaultHookFactory} on the classpath. The
 * tests have one (cpctl started from the test classpath honours the variable); the production jar
 * has none and says so in one line instead of ignoring the variable silently.
 */
public final class FaultPoints {
  /** The only switch (read by {@code cpctl worker}). */
  public static final String ENV = "CP_FAULT_PAUSE";
  /** Value that traces without pausing. */
  public static final String NONE = "none";
  public static final String TOOL_CALL = "tool-call";
  public static final String ATTENTION = "attention";
  public static final String LEDGER_WRITTEN = "ledger-written";
  public static final String LEDGER_TORN = "ledger-torn";
  /** Prefix of every line fault injection prints. */
  public static final String MARKER = "cp-fault: ";
  /** The line a build without fault injection prints when {@link #ENV} is set anyway. */
  public static final String NOT_IN_THIS_BUILD = "cpctl: " + ENV + " is set, but this build has no fault injection"
      + " (it exists only on the test classpath); ignoring it";

  private FaultPoints() {}

  /**
   * The hook {@code env}'s {@link #ENV} asks for, from the first {@link FaultHookFactory} on the
   * classpath; without the variable, {@link FaultHook#NONE}. Without a factory (the production jar)
   * it prints {@link #NOT_IN_THIS_BUILD} to {@code err} and returns none.
   *
   * @throws IllegalArgumentException naming the variable when its value names no known point
   */
  public static FaultHook hookFor(Map<String, String> env, PrintStream out, PrintStream err) {
    return hookFor(env, out, err, ServiceLoader.load(FaultHookFactory.class));
  }

  static FaultHook hookFor(Map<String, String> env, PrintStream out, PrintStream err,
      Iterable<FaultHookFactory> factories) {
    String raw = env.get(ENV);
    if (raw == null || raw.isBlank()) {
      return FaultHook.NONE;
    }
    var found = factories.iterator();
    if (!found.hasNext()) {
      err.println(NOT_IN_THIS_BUILD);
      err.flush();
      return FaultHook.NONE;
    }
    return found.next().create(raw, out);
  }

  /** The name of a per-event point, e.g. {@code ledger-written:TOOL_CALL}. */
  public static String of(String point, String eventType) {
    return point + ":" + (eventType == null ? "" : eventType.toUpperCase(Locale.ROOT));
  }
}
