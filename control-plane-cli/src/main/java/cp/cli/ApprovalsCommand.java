package cp.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import cp.model.PendingApproval;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cpctl approvals [SES-…] [--json]} (issue 15): the tool calls waiting for a person. The
 * service is the authority: the sessions' Query {@code state}, for one session or for every
 * session open on the service (issue 20: asked from any host or plane root, not read from local
 * ledgers, which another {@code CP_HOME} does not have).
 */
@Command(name = "approvals", mixinStandardHelpOptions = true,
    description = "List tool calls waiting for a person's approval (all open sessions on the service, or one).")
final class ApprovalsCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Parameters(paramLabel = "SESSION_ID", arity = "0..1", description = "Only this session (SES-xxxxxxxx).")
  String sessionId;

  @Option(names = "--json", description = "Print a JSON list of objects, each with an approval_id field.")
  boolean json;

  @Override
  public Integer call() {
    List<PendingApproval> pending = withSharedService("approvals",
        plane -> sessionId != null ? plane.client.pendingApprovals(sessionId) : plane.client.pendingApprovals());
    Instant now = Instant.now();
    if (json) {
      ArrayNode list = Json.MAPPER.createArrayNode();
      for (PendingApproval p : pending) {
        ObjectNode o = (ObjectNode) Json.tree(p);
        o.put("age_seconds", ApprovalText.age(p, now).toSeconds());
        list.add(o);
      }
      out().println(Json.pretty(list));
      return Cpctl.OK;
    }
    if (pending.isEmpty()) {
      out().println(sessionId == null ? "no approvals pending in the open sessions on the service"
          : "no approvals pending in " + sessionId);
      return Cpctl.OK;
    }
    for (PendingApproval p : pending) {
      ApprovalText.listing(p, now).forEach(out()::println);
    }
    return Cpctl.OK;
  }
}
