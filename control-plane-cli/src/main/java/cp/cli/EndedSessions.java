package cp.cli;

import cp.client.SessionEndedException;
import cp.model.SessionSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;

/**
 * What {@code cpctl chat} says and does when its session ended by itself (idle timeout,
 * lifetime, turn limit) or elsewhere: in a terminal it says when and why and offers a new
 * session; piped, nobody can answer, so it says so in one line and sends nothing more.
 */
final class EndedSessions {
  private EndedSessions() {}

  /**
   * Asks whether to start a new session; Enter, "y" or "yes" mean yes. The question names the
   * session, when it ended and why.
   */
  static boolean offerNewSession(SessionEndedException e, LineInput input, PrintStream out) throws IOException {
    SessionSummary s = e.summary();
    out.print("Session " + s.sessionId() + " " + SessionEndedException.endedWhenAndWhy(s) + ". Start a new session? [Y/n] ");
    out.flush();
    LineInput.Line answer = input.next();
    if (answer == null || answer.text() == null) {
      return false;
    }
    String a = answer.text().trim().toLowerCase(Locale.ROOT);
    return a.isEmpty() || a.equals("y") || a.equals("yes");
  }

  /** The one line a piped chat prints before it stops: what ended, and that the input was not sent. */
  static String notSent(SessionEndedException e) {
    SessionSummary s = e.summary();
    return "cpctl: session " + s.sessionId() + " " + SessionEndedException.endedWhenAndWhy(s)
        + "; this input line and the rest of the input were not sent. Run 'cpctl chat' again to start a new session";
  }

  /** The closing line: "Session SES-… ended: 2 turn(s), 6913 tokens, $0.0000." plus why, unless its user ended it. */
  static String closing(SessionSummary s) {
    String why = s.endReason() == null || s.endReason().equals("end") ? "" : " (" + s.endReason() + ")";
    return String.format(Locale.ROOT, "Session %s ended: %d turn(s), %d tokens, $%.4f.%s", s.sessionId(), s.turns(),
        s.tokensUsed(), s.cost(), why);
  }
}
