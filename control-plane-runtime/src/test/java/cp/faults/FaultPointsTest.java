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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Fault points are inert unless CP_FAULT_PAUSE names them, and then pause exactly once. */
class FaultPointsTest {
  /** How long a paused thread is given to reach its wait. */
  static final Duration PAUSE_DEADLINE = Duration.ofSeconds(5);

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  @AfterEach
  void off() {
    FaultPoints.disable();
  }

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutTheVariable_pointsAreInertAndSilent() {
    FaultPoints.configure(Map.of(), out);

    FaultPoints.at(FaultPoints.TOOL_CALL);
    assertFalse(FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")));
    assertEquals("", printed());
  }

  @Test
  void none_tracesEveryPointWithoutPausing() {
    FaultPoints.configure(Map.of(FaultPoints.ENV, FaultPoints.NONE), out);

    FaultPoints.at(FaultPoints.TOOL_CALL);
    FaultPoints.at(FaultPoints.TOOL_CALL);
    assertFalse(FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_WRITTEN, "TOOL_CALL")));

    assertEquals(2, printed().lines().filter("cp-fault: at tool-call"::equals).count(), printed());
    assertTrue(printed().contains("cp-fault: at ledger-written:TOOL_CALL"), printed());
    assertTrue(printed().contains("test use only"), printed());
  }

  @Test
  void aNamedPoint_isArmedOnceOnly() {
    FaultPoints.configure(Map.of(FaultPoints.ENV, "ledger-torn:LLM_CALL"), out);

    assertFalse(FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "TOOL_CALL")), "another event type");
    assertTrue(FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")));
    assertFalse(FaultPoints.armed(FaultPoints.of(FaultPoints.LEDGER_TORN, "LLM_CALL")), "a second arrival");
  }

  @Test
  void reachingAPausePoint_printsTheMarkerAndBlocksThatThread() throws Exception {
    FaultPoints.configure(Map.of(FaultPoints.ENV, FaultPoints.ATTENTION), out);
    Thread t = new Thread(() -> FaultPoints.at(FaultPoints.ATTENTION), "paused-by-test");
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
        () -> FaultPoints.configure(Map.of(FaultPoints.ENV, "tool-cal"), out));
    assertTrue(e.getMessage().startsWith("CP_FAULT_PAUSE='tool-cal'"), e.getMessage());
    assertTrue(e.getMessage().contains("tool-call, attention"), e.getMessage());
  }
}
