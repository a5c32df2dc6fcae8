package cp.cli;

import cp.model.TurnEvent;
import cp.model.TurnResult;
import java.io.PrintStream;

/**
 * Prints a turn's reply as it arrives (issue 24): each text delta at once, flushed; a
 * {@code retracted} ends the line, says so on stderr and prints again what stays; at the end the
 * footer, after the rest of the reply from the result (the text after the last delta read: the
 * commands do not read the closed turn's last events, {@link #LISTENS_AFTER_RESULT}), or after
 * the reply in full when it did not stream or what streamed is not the result (the result counts). Deltas come on the turn's thread, the result on the
 * caller's, one after the other.
 */
final class LiveReply {
  /** The commands print the rest of the reply from the result: no read of the closed turn's events. */
  static final boolean LISTENS_AFTER_RESULT = false;
  /** What stderr says when streamed text is withdrawn. */
  static final String WITHDRAWN = "  [the reply above was withdrawn; it continues from what stays]";

  private final PrintStream out;
  private final PrintStream err;
  private final Runnable beforeFirst;
  private final StringBuilder shown = new StringBuilder();
  private volatile boolean started;

  /** {@code beforeFirst}: runs once before the first character (clears a progress line). */
  LiveReply(PrintStream out, PrintStream err, Runnable beforeFirst) {
    this.out = out;
    this.err = err;
    this.beforeFirst = beforeFirst;
  }

  /** Whether any reply text has been printed. */
  boolean started() {
    return started;
  }

  synchronized void onEvent(TurnEvent e) {
    if (TurnEvent.TEXT_DELTA.equals(e.type()) && e.text() != null && !e.text().isEmpty()) {
      if (!started) {
        beforeFirst.run();
        started = true;
      }
      out.print(e.text());
      out.flush();
      shown.append(e.text());
    } else if (TurnEvent.RETRACTED.equals(e.type()) && started && e.keep() != null) {
      out.println();
      out.flush();
      err.println(WITHDRAWN);
      err.flush();
      shown.setLength(Math.min(shown.length(), e.keep()));
      out.print(shown);
      out.flush();
    }
  }

  /** The turn's result: the rest of what to print. */
  synchronized void finish(TurnResult r) {
    if (!started) {
      TurnPrinter.print(out, r);
      return;
    }
    String response = r.response() == null ? "" : r.response();
    if (response.startsWith(shown.toString())) {
      out.println(response.substring(shown.length())); // the text after the last delta read, if any
    } else {
      out.println();
      err.println(WITHDRAWN);
      out.println(response);
    }
    out.println(TurnPrinter.footer(r));
    out.flush();
  }
}
