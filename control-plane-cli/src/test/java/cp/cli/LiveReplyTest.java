package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.CostSummary;
import cp.model.TurnEvent;
import cp.model.TurnResult;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: {@code cpctl chat} and {@code cpctl turn} print the reply as it arrives — each delta
 * reaches the terminal (flushed) when it comes — say so when streamed text is withdrawn, and end
 * with the footer; the printed reply equals the result.
 */
class LiveReplyTest {
  /** What reached the terminal at each flush. */
  static final class Flushes extends OutputStream {
    final ByteArrayOutputStream all = new ByteArrayOutputStream();
    final List<String> flushed = new ArrayList<>();

    @Override
    public void write(int b) {
      all.write(b);
    }

    @Override
    public void flush() {
      flushed.add(all.toString(StandardCharsets.UTF_8));
    }
  }

  static TurnResult result(String text) {
    return new TurnResult(text, "success", "SES-12345678", 1, true, List.of(), CostSummary.of(
        cp.model.WoCost.ZERO, 0, 100), List.of(), List.of(), null, null);
  }

  @Test
  void eachDeltaIsFlushedWhenItComes_thenTheFooter() {
    Flushes out = new Flushes();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int[] cleared = {0};
    LiveReply live = new LiveReply(new PrintStream(out, false, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), () -> cleared[0]++);

    live.onEvent(TurnEvent.step(1, TurnEvent.STEP_STARTED, "synthesize"));
    live.onEvent(TurnEvent.text(2, "Hello"));
    assertEquals("Hello", out.flushed.get(out.flushed.size() - 1), "on the terminal before the next delta");
    live.onEvent(TurnEvent.text(3, ", world."));
    assertEquals("Hello, world.", out.flushed.get(out.flushed.size() - 1));
    live.finish(result("Hello, world."));

    String printed = out.all.toString(StandardCharsets.UTF_8);
    assertEquals("Hello, world.\n" + TurnPrinter.footer(result("Hello, world.")) + "\n", printed);
    assertEquals(1, cleared[0], "the progress line is cleared once, before the first character");
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aRetraction_isSaid_andWhatStaysIsPrintedAgain() {
    Flushes out = new Flushes();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LiveReply live = new LiveReply(new PrintStream(out, false, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), () -> { });

    live.onEvent(TurnEvent.text(1, "The answer is blue"));
    live.onEvent(TurnEvent.retracted(2, 14));
    live.onEvent(TurnEvent.text(3, "red"));
    live.finish(result("The answer is red"));

    String printed = out.all.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith("The answer is blue\nThe answer is red\n"), printed);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("withdrawn"));
  }

  @Test
  void nothingStreamed_printsTheWholeReplyAtTheEnd_asBefore() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LiveReply live = new LiveReply(new PrintStream(out, true, StandardCharsets.UTF_8), System.err, () -> { });
    live.finish(result("Whole."));
    assertEquals("Whole.\n" + TurnPrinter.footer(result("Whole.")) + "\n", out.toString(StandardCharsets.UTF_8));
  }

  /** The commands skip reading the closed turn's last events: the text after the last delta read comes from the result. */
  @Test
  void theRestAfterTheLastDeltaRead_comesFromTheResult_notWithdrawn() {
    Flushes out = new Flushes();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LiveReply live = new LiveReply(new PrintStream(out, false, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), () -> { });

    live.onEvent(TurnEvent.text(1, "Hello, wo"));
    live.finish(result("Hello, world."));

    assertEquals("Hello, world.\n" + TurnPrinter.footer(result("Hello, world.")) + "\n",
        out.all.toString(StandardCharsets.UTF_8));
    assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing was withdrawn");
    assertTrue(!LiveReply.LISTENS_AFTER_RESULT, "chat and turn print the rest from the result");
  }
}
