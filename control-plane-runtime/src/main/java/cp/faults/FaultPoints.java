package cp.faults;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The named points where a test may stop a worker so that it can SIGKILL it exactly there, and
 * {@link #hookFor} that makes the {@link FaultHook} a worker passes to what reaches them (the
 * activities take it as a collaborator, issue 21). The static {@link #at}/{@link #armed}/{@link
 * #pause} facade remains for the ledger stores only, until they take their hook through their
 * options (the ledger helper's {@code LedgerHooks}); nothing else may call it.
 *
 * <p>Points: {@link #TOOL_CALL} (a tool is about to run inside its activity), {@link #ATTENTION}
 * (attention has read the ledgers and not yet written ATTENTION_ASSEMBLED),
 * {@code ledger-written:<EVENT_TYPE>} (the entry's line is on disk but the append is not yet
 * acknowledged: head not updated, caller not returned) and {@code ledger-torn:<EVENT_TYPE>}
 * (only the first half of the line is on disk: a torn write).
 *
 * <p>{@code cpctl worker} calls {@link #configure} with its environment: when {@code
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

  private static volatile FaultHook hook = FaultHook.NONE;

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

  /**
   * {@link #hookFor} and installs the hook for the ledger stores' static calls (see the class
   * comment); returns it, for everything else to be passed.
   */
  public static FaultHook configure(Map<String, String> env, PrintStream out, PrintStream err) {
    return install(hookFor(env, out, err));
  }

  /** {@link #configure(Map, PrintStream, PrintStream)} with {@code out} for both streams. */
  public static FaultHook configure(Map<String, String> env, PrintStream out) {
    return configure(env, out, out);
  }

  static FaultHook configure(Map<String, String> env, PrintStream out, PrintStream err,
      Iterable<FaultHookFactory> factories) {
    return install(hookFor(env, out, err, factories));
  }

  /** Installs {@code h} for the ledger stores' static calls (and tests that drive them in-process); returns it. */
  public static FaultHook install(FaultHook h) {
    hook = h == null ? FaultHook.NONE : h;
    return hook;
  }

  /** Back to {@link FaultHook#NONE}. */
  public static void disable() {
    hook = FaultHook.NONE;
  }

  /** The name of a per-event point, e.g. {@code ledger-written:TOOL_CALL}. */
  public static String of(String point, String eventType) {
    return point + ":" + (eventType == null ? "" : eventType.toUpperCase(Locale.ROOT));
  }

  /** Passes a point (the hook may pause here for good). */
  public static void at(String point) {
    hook.at(point);
  }

  /**
   * True when the hook wants the fault at this point set up: the caller then sets it up (for
   * example writes half a line) and calls {@link #pause}.
   */
  public static boolean armed(String point) {
    return hook.armed(point);
  }

  /** Stops this thread at {@code point}, as the hook does. */
  public static void pause(String point) {
    hook.pause(point);
  }
}
