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
 * One turn, scriptable: prints the reply and the footer, or the whole TurnResult as JSON. On a
 * terminal the reply is printed as it arrives (issue 24); piped or redirected it is printed once,
 * when the turn is done, as {@code cpctl chat} does, so text the turn withdraws never reaches what a
 * script reads. {@code --stream} asks for the live text anyway, {@code --no-stream} never.
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

  @Option(names = "--no-stream", description = "Print only the whole reply at the end, not as it is written"
      + " (what turn does when stdout is not a terminal).")
  boolean noStream;

  @Option(names = "--stream", description = "Print the reply as it is written even when stdout is not a terminal"
      + " (text the turn withdraws then stays in stdout; stderr says so).")
  boolean stream;

  @Parameters(paramLabel = "TEXT", arity = "1..*", description = "The message (words are joined with spaces).")
  String[] words;

  @Override
  public Integer call() {
    var cfg = config();
    if (stream && noStream) {
      throw new IllegalArgumentException("--stream and --no-stream contradict each other: give one of them");
    }
    CliPlane.requireSharedService(cfg, "turn");
    String text = String.join(" ", words);
    int replaced = text.indexOf(NOT_UTF8);
    if (replaced >= 0) {
      throw new IllegalArgumentException("TEXT is not valid UTF-8: U+FFFD at position " + replaced + " marks bytes"
          + " the shell passed that are not UTF-8 (binary input?); send UTF-8 text");
    }
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      LiveReply live = new LiveReply(out(), err(), () -> { });
      // Piped, the live text is not printed: text the turn withdraws would stay in what a script reads.
      boolean following = !json && (stream || (!noStream && stdoutIsTerminal()));
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
          return following;
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
