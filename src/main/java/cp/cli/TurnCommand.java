package cp.cli;

import cp.model.Json;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** One turn, scriptable: prints the reply and footer, or the whole TurnResult as JSON. */
@Command(name = "turn", mixinStandardHelpOptions = true,
    description = "Send one turn to a session and print the reply (exit 1 when the turn ended in error).")
final class TurnCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--session", required = true, description = "Session id (SES-xxxxxxxx).")
  String sessionId;

  @Option(names = "--json", description = "Print the whole TurnResult as JSON.")
  boolean json;

  @Parameters(paramLabel = "TEXT", arity = "1..*", description = "The message (words are joined with spaces).")
  String[] words;

  @Override
  public Integer call() {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "turn");
    try (CliPlane plane = CliPlane.open(cfg)) {
      TurnResult r = plane.client.turn(sessionId, String.join(" ", words));
      if (json) {
        out().println(Json.pretty(r));
      } else {
        TurnPrinter.print(out(), r);
      }
      return TurnOutcome.ERROR.equals(r.outcome()) ? Cpctl.FAILED : Cpctl.OK;
    }
  }
}
