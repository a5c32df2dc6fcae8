package cp.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fault points are inert unless CP_FAULT_PAUSE names them, and then pause exactly once. */
class FaultPointsTest {
  /** How long a paused thread is given to reach its wait. */
  static final Duration PAUSE_DEADLINE = Duration.ofSeconds(5);

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutTheVariable_pointsAreInertAndSilent() {
    FaultHook hook = FaultPoints.hookFor(Map.of(), out, out);

    hook.at(FaultPoints.TOOL_CALL);
    assertFalse(hook.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")));
    assertEquals("", printed());
  }

  @Test
  void none_tracesEveryPointWithoutPausing() {
    FaultHook hook = FaultPoints.hookFor(Map.of(FaultPoints.ENV, FaultPoints.NONE), out, out);

    hook.at(FaultPoints.TOOL_CALL);
    hook.at(FaultPoints.TOOL_CALL);
    assertFalse(hook.armed(FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "TOOL_CALL")));

    assertEquals(2, printed().lines().filter("cp-fault: at tool-call"::equals).count(), printed());
    assertTrue(printed().contains("cp-fault: at ledger-written:TOOL_CALL"), printed());
    assertTrue(printed().contains("test use only"), printed());
  }

  @Test
  void aNamedPoint_isArmedOnceOnly() {
    FaultHook hook = FaultPoints.hookFor(Map.of(FaultPoints.ENV, "ledger-torn:LLM_CALL"), out, out);

    assertFalse(hook.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "TOOL_CALL")), "another event type");
    assertTrue(hook.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")));
    assertFalse(hook.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")), "a second arrival");
  }

  @Test
  void reachingAPausePoint_printsTheMarkerAndBlocksThatThread() throws Exception {
    FaultHook hook = FaultPoints.hookFor(Map.of(FaultPoints.ENV, FaultPoints.ATTENTION), out, out);
    Thread t = new Thread(() -> hook.at(FaultPoints.ATTENTION), "paused-by-test");
    t.setDaemon(true);
    t.start();

    long deadline = System.nanoTime() + PAUSE_DEADLINE.toNanos();
    while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(Thread.State.WAITING, t.getState(), "the thread stays paused");
    t.interrupt();
    t.join(200);
    assertTrue(t.isAlive(), "an interrupt does not release a paused thread");
    assertTrue(printed().contains("cp-fault: paused at attention"), printed());
  }

  @Test
  void anUnknownPoint_isRefusedNamingTheVariable() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> FaultPoints.hookFor(Map.of(FaultPoints.ENV, "tool-cal"), out, out));
    assertTrue(e.getMessage().startsWith("CP_FAULT_PAUSE='tool-cal'"), e.getMessage());
    assertTrue(e.getMessage().contains("tool-call, attention"), e.getMessage());
  }

  @Test
  void withoutAFaultHookFactory_theVariableIsReportedInOneLine_andEveryPointDoesNothing() {
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    FaultHook hook = FaultPoints.hookFor(Map.of(FaultPoints.ENV, FaultPoints.TOOL_CALL), out, err, java.util.List.of());

    assertEquals(FaultHook.NONE, hook);
    hook.at(FaultPoints.TOOL_CALL); // would block this thread for good with a hook
    assertFalse(hook.armed(FaultPoints.TOOL_CALL));
    assertEquals("", printed());
    assertEquals(FaultPoints.NOT_IN_THIS_BUILD + System.lineSeparator(), errBytes.toString(StandardCharsets.UTF_8));
    assertTrue(FaultPoints.NOT_IN_THIS_BUILD.contains("CP_FAULT_PAUSE")
        && FaultPoints.NOT_IN_THIS_BUILD.contains("no fault injection"));
  }

  /** The environment-driven hook is test code: the product's classes hold only the no-op seam. */
  @Test
  void theEnvironmentDrivenHookIsNotAMainClass() throws Exception {
    var factories = java.util.ServiceLoader.load(FaultHookFactory.class).stream().map(p -> p.type()).toList();
    assertEquals(java.util.List.of(EnvFaultHook.Factory.class), factories);
    String where = EnvFaultHook.class.getProtectionDomain().getCodeSource().getLocation().toString();
    String main = FaultPoints.class.getProtectionDomain().getCodeSource().getLocation().toString();
    assertFalse(where.equals(main), "EnvFaultHook is loaded from " + where + ", the product's own classes");
  }
}
