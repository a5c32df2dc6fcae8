package cp.cli;

import cp.model.ApprovalDecision;
import cp.model.ApprovalResult;
import cp.model.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cpctl approve SES-… ID [--deny] [--reason TEXT] [--by NAME]} (issue 15): decides one
 * waiting tool call. The approver is {@code --by} or the OS user. Exit 0 when the decision was
 * recorded as asked, 1 when the approval had already timed out, 2 when it was refused (unknown,
 * already decided: the message says by whom).
 */
@Command(name = "approve", mixinStandardHelpOptions = true,
    description = "Grant (or with --deny refuse) a tool call waiting for approval.")
final class ApproveCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SESSION_ID")
  String sessionId;

  @Parameters(index = "1", paramLabel = "APPROVAL_ID")
  String approvalId;

  @Option(names = "--deny", description = "Refuse the call: the tool does not run and the model is told.")
  boolean deny;

  @Option(names = "--reason", paramLabel = "TEXT", description = "Why; recorded, and shown to the model on a denial.")
  String reason;

  @Option(names = "--by", paramLabel = "NAME", description = "Who decides (default: the OS user).")
  String by;

  @Option(names = "--json", description = "Print the recorded decision as JSON.")
  boolean json;

  @Override
  public Integer call() {
    String who = ApprovalPrompt.approver(by);
    ApprovalDecision d = new ApprovalDecision(approvalId, deny ? ApprovalDecision.DENY : ApprovalDecision.GRANT, who,
        reason);
    d.fieldProblem().ifPresent(p -> {
      throw new IllegalArgumentException(p.message());
    });
    ApprovalResult r = withSharedService("approve", plane -> plane.client.approve(sessionId, d,
        () -> err().println("cpctl: no worker has taken the decision yet; it stays pending and applies when a worker"
            + " runs (waiting; Ctrl-C leaves it to apply later)")));
    if (json) {
      out().println(Json.pretty(r));
    } else {
      out().println(r.message() != null ? r.message() : r.approvalId() + " " + r.decision());
    }
    String asked = deny ? ApprovalResult.DENIED : ApprovalResult.GRANTED;
    return asked.equals(r.decision()) ? Cpctl.OK : Cpctl.FAILED;
  }
}
