package cp.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.client.ClientException;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.PendingApproval;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cpctl approvals [SES-…] [--json]} (issue 15): the tool calls waiting for a person. The
 * sessions' Query {@code state} is the authority; without a session id the HO1 ledger names the
 * sessions that have an approval asked and not yet decided, and each is asked.
 */
@Command(name = "approvals", mixinStandardHelpOptions = true,
    description = "List tool calls waiting for a person's approval (all sessions, or one).")
final class ApprovalsCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Parameters(paramLabel = "SESSION_ID", arity = "0..1", description = "Only this session (SES-xxxxxxxx).")
  String sessionId;

  @Option(names = "--json", description = "Print a JSON list of objects, each with an approval_id field.")
  boolean json;

  @Override
  public Integer call() {
    var cfg = config();
    CliPlane.requireSharedService(cfg, "approvals");
    Set<String> sessions;
    if (sessionId != null) {
      sessions = Set.of(sessionId);
    } else {
      try (Ledgers ledgers = openLedgers(cfg)) {
        sessions = ApprovalHistory.sessionsWithUndecided(ledgers);
      }
    }
    List<PendingApproval> pending = new ArrayList<>();
    try (CliPlane plane = CliPlane.open(cfg, env())) {
      for (String sid : sessions) {
        try {
          pending.addAll(plane.client.pendingApprovals(sid));
        } catch (ClientException e) {
          if (sessionId != null) {
            throw e;
          }
          // An ended or forgotten session has nothing pending.
        }
      }
    }
    Instant now = Instant.now();
    if (json) {
      ArrayNode list = Json.MAPPER.createArrayNode();
      for (PendingApproval p : pending) {
        ObjectNode o = (ObjectNode) Json.tree(p);
        o.put("age_seconds", age(p, now).toSeconds());
        list.add(o);
      }
      out().println(Json.pretty(list));
      return Cpctl.OK;
    }
    if (pending.isEmpty()) {
      out().println(sessionId == null ? "no approvals pending" : "no approvals pending in " + sessionId);
      return Cpctl.OK;
    }
    for (PendingApproval p : pending) {
      out().println(p.approvalId() + "  " + p.sessionId() + " turn " + p.turn() + "  " + p.tool() + "  age "
          + words(age(p, now)) + "  deadline " + p.deadline() + " (then " + p.onTimeout() + ")");
      out().println("  " + cp.model.DisplayText.escape(p.summary()).replace("\n", "\n  "));
      out().println("  decide: cpctl approve " + p.sessionId() + " " + p.approvalId() + " [--deny] [--reason TEXT]");
    }
    return Cpctl.OK;
  }

  private static Duration age(PendingApproval p, Instant now) {
    try {
      return Duration.between(Instant.parse(p.requestedAt()), now);
    } catch (RuntimeException e) {
      return Duration.ZERO;
    }
  }

  private static String words(Duration d) {
    long s = Math.max(0, d.toSeconds());
    return s < 120 ? s + " s" : s / 60 + " min";
  }
}
