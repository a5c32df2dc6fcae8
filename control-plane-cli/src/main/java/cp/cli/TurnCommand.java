package cp.cli;

import cp.client.TurnListener;
import cp.model.Json;
import cp.model.PendingApproval;
import cp.model.TurnEvent;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * One turn, scriptable: prints the reply as it arrives (issue 24; {@code --no-stream}: only at
 * the end) and the footer, or the whole TurnResult as JSON.
 */
@Command(name = "turn", mixinStandardHelpOptions = true,
    description = "Send one turn to a session and print the reply (exit 1 when the turn ended in error).")
final class TurnCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  /**
   * What the JVM makes of argument bytes that are not valid UTF-8. A message holding it was not
   * what the user meant to send, and the model must not get it as if it were.
   */
  static final char NOT_UTF8 = '\uFFFD';

  @Option(names = "--session", required = true, description = "Session id (SES-xxxxxxxx).")
  String sessionId;

  @Option(names = "--json", description = "Print the whole TurnResult as JSON.")
  boolean json;

  @Option(names = "--no-stream", description = "Print only the whole reply at the end, not as it is written.")
  boolean noStream;

  @Parameters(paramLabel = "TEXT", arity = "1..*", description = "The message (words are joined with spaces).")
  String[] words;

  @Override
  public Integer call() {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "turn");
    String text = String.join(" ", words);
    int replaced = text.indexOf(NOT_UTF8);
    if (replaced >= 0) {
      throw new IllegalArgumentException("TEXT is not valid UTF-8: U+FFFD at position " + replaced + " marks bytes"
          + " the shell passed that are not UTF-8 (binary input?); send UTF-8 text");
    }
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      LiveReply live = new LiveReply(out(), err(), () -> { });
      boolean stream = !json && !noStream;
      TurnResult r = plane.client.turn(sessionId, text, new TurnListener() {
        @Override
        public void onApproval(PendingApproval p) {
          err().println(ApprovalText.waitingLine(p));
        }

        @Override
        public boolean wantsProgress() {
          return false;
        }

        @Override
        public void onEvent(TurnEvent e) {
          live.onEvent(e);
        }

        @Override
        public boolean wantsEvents() {
          return stream;
        }

        @Override
        public boolean wantsEventsAfterResult() {
          return LiveReply.LISTENS_AFTER_RESULT;
        }
      });
      if (json) {
        out().println(Json.pretty(r));
      } else {
        live.finish(r);
      }
      return TurnOutcome.ERROR.equals(r.outcome()) ? Cpctl.FAILED : Cpctl.OK;
    }
  }
}
