package cp.cli;

import cp.model.ApprovalDecision;
import cp.model.PendingApproval;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code cpctl chat}'s in-place question about a tool call waiting for a person (issue 15):
 * {@code approve write_file HO2/notes.md (120 bytes, 3 lines)? [y/N/r(eason)]}. {@code y} grants,
 * anything else (Enter included) denies, {@code r} asks for a reason first and then the same
 * question. The end of input decides nothing: the approval stays pending.
 */
final class ApprovalPrompt {
  /** Who decides when no name is given: the OS user (issue 15: "--by or the OS user"). */
  static String approver(String by) {
    return by != null && !by.isBlank() ? by : System.getProperty("user.name", "unknown");
  }

  private ApprovalPrompt() {}

  /** The question's first line: the tool and the summary's first line (path, size, lines). */
  static String question(PendingApproval p) {
    String first = p.summary() == null ? "" : cp.model.DisplayText.escape(p.summary()).lines().findFirst().orElse("");
    return "approve " + p.tool() + " " + first + "? [y/N/r(eason)] ";
  }

  /** Asks on {@code out}, reads the answer from {@code in}; empty when the input ended first. */
  static Optional<ApprovalDecision> ask(PendingApproval p, LineInput in, PrintStream out, String approver) {
    out.println(cp.model.DisplayText.escape(p.summary()));
    out.print(question(p));
    out.flush();
    String a = answer(in);
    String reason = null;
    if ("r".equals(a) || "reason".equals(a)) {
      out.print("reason: ");
      out.flush();
      reason = line(in);
      if (reason == null) {
        return Optional.empty();
      }
      out.print("approve " + p.tool() + "? [y/N] ");
      out.flush();
      a = answer(in);
    }
    if (a == null) {
      return Optional.empty();
    }
    boolean grant = a.equals("y") || a.equals("yes");
    return Optional.of(new ApprovalDecision(p.approvalId(), grant ? ApprovalDecision.GRANT : ApprovalDecision.DENY,
        approver, reason == null || reason.isBlank() ? null : reason.trim()));
  }

  private static String answer(LineInput in) {
    String l = line(in);
    return l == null ? null : l.trim().toLowerCase(Locale.ROOT);
  }

  private static String line(LineInput in) {
    try {
      LineInput.Line l = in.next();
      return l == null || l.text() == null ? null : l.text();
    } catch (IOException e) {
      return null;
    }
  }
}
