package cp.cli;

import cp.model.PendingApproval;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How cpctl shows a tool call that waits for a person (issue 15), in one place for every command
 * that shows one: {@code approvals} lists them, {@code turn} and {@code chat} say they wait, chat
 * asks about them.
 */
final class ApprovalText {
  private ApprovalText() {}

  /**
   * The summary as a person may see it: control, bidi and invisible characters shown escaped
   * (issue 20, {@link cp.model.DisplayText}; the plane escapes them when it builds a summary, this
   * covers summaries recorded before); "" when there is none.
   */
  static String shown(PendingApproval p) {
    return p.summary() == null ? "" : cp.model.DisplayText.escape(p.summary());
  }

  /** The summary's first line: the tool's target and size (e.g. "HO2/notes.md (120 bytes, 3 lines)"). */
  static String firstLine(PendingApproval p) {
    return shown(p).lines().findFirst().orElse("");
  }

  /** The command that decides it. */
  static String decideCommand(PendingApproval p) {
    return "cpctl approve " + p.sessionId() + " " + p.approvalId();
  }

  /**
   * What a waiting turn says about a tool call that waits for a person. The turn keeps waiting;
   * Ctrl-C leaves the approval pending (it lives in the session, not in this process).
   */
  static String waitingLine(PendingApproval p) {
    return "cpctl: waiting for approval " + p.approvalId() + " (" + p.tool() + " " + firstLine(p) + ", until "
        + p.deadline() + ", then " + p.onTimeout() + "): decide with '" + decideCommand(p)
        + "' (add --deny to refuse); still waiting";
  }

  /**
   * What a chat whose input is piped says when its Temporal service is embedded in it: no other
   * process can reach that service, so nobody can decide; the call waits out its timeout and then
   * has the policy's outcome.
   */
  static String undecidableLine(PendingApproval p) {
    return "cpctl: approval " + p.approvalId() + " (" + p.tool() + " " + firstLine(p) + ") cannot be decided: this"
        + " chat's input is not a terminal, and its Temporal service runs inside it, so 'cpctl approve' from another"
        + " shell cannot reach it; the turn waits until " + p.deadline() + ", then " + p.onTimeout() + ". To decide"
        + " approvals of a piped chat, run 'cpctl dev-server' and 'cpctl worker', and chat with TEMPORAL_ADDRESS set";
  }

  /** {@code cpctl approvals}' lines for one: id, session, turn, tool, age, deadline; the summary; how to decide. */
  static List<String> listing(PendingApproval p, Instant now) {
    return List.of(
        p.approvalId() + "  " + p.sessionId() + " turn " + p.turn() + "  " + p.tool() + "  age " + words(age(p, now))
            + "  deadline " + p.deadline() + " (then " + p.onTimeout() + ")",
        "  " + shown(p).replace("\n", "\n  "),
        "  decide: " + decideCommand(p) + " [--deny] [--reason TEXT]");
  }

  /** How long it has waited (zero when its request time cannot be read). */
  static Duration age(PendingApproval p, Instant now) {
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
