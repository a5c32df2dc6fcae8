package cp.cli;

import cp.model.ApprovalDecision;
import cp.model.PendingApproval;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code cpctl chat}'s in-place question about a tool call waiting for a person (issue 15):
 * {@code approve write_file HO2/notes.md (120 bytes, 3 lines)? [y/N/r(eason)] }. One answer decides:
 * {@code y} grants, {@code n}, Enter or anything else denies, {@code r} asks for the reason and
 * denies with it; {@code y} or {@code n} followed by text decides with that text as the reason
 * ({@code n not in HO2 please}). Issue 20: {@code r} no longer asks the question again after the
 * reason, and {@code exit} or {@code quit} is not an answer: like the end of input, it decides
 * nothing (the approval stays pending), and chat ends after the turn.
 */
final class ApprovalPrompt {
  /** Who decides when no name is given: the OS user (issue 15: "--by or the OS user"). */
  static String approver(String by) {
    if (by == null) {
      return System.getProperty("user.name", "unknown");
    }
    if (by.isBlank()) {
      // An empty --by (an unset shell variable, say) must not record someone else as the approver.
      throw new IllegalArgumentException("--by is empty: give who decides, or leave --by out to record the OS user");
    }
    return by;
  }

  /** What the person answered: a decision, or none (end of input, or {@code exit}: then {@code leave}). */
  record Answer(ApprovalDecision decision, boolean leave) {
    Optional<ApprovalDecision> decided() {
      return Optional.ofNullable(decision);
    }
  }

  private ApprovalPrompt() {}

  /** The question's first line: the tool and the summary's first line (path, size, lines). */
  static String question(PendingApproval p) {
    return "approve " + p.tool() + " " + ApprovalText.firstLine(p) + "? [y/N/r(eason)] ";
  }

  /** Asks on {@code out} and reads one answer from {@code in} (and, after {@code r}, the reason). */
  static Answer ask(PendingApproval p, LineInput in, PrintStream out, String approver) {
    out.println(ApprovalText.shown(p));
    out.print(question(p));
    out.flush();
    String line = line(in);
    if (line == null) {
      return new Answer(null, false);
    }
    String a = line.trim();
    // "yes, fine by me": the first word without its punctuation.
    String word = (a.contains(" ") ? a.substring(0, a.indexOf(' ')) : a).toLowerCase(Locale.ROOT)
        .replaceAll("[,.;:!]+$", "");
    String rest = a.contains(" ") ? a.substring(a.indexOf(' ') + 1).trim() : "";
    if (word.equals("exit") || word.equals("quit")) {
      return new Answer(null, true);
    }
    boolean grant = word.equals("y") || word.equals("yes");
    String reason = grant || word.equals("n") || word.equals("no") ? rest : null;
    if (word.equals("r") || word.equals("reason")) {
      reason = rest;
      if (reason.isEmpty()) {
        out.print("reason for denying it: ");
        out.flush();
        reason = line(in);
        if (reason == null) {
          return new Answer(null, false);
        }
      }
    }
    return new Answer(new ApprovalDecision(p.approvalId(), grant ? ApprovalDecision.GRANT : ApprovalDecision.DENY,
        approver, reason == null || reason.isBlank() ? null : reason.trim()), false);
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
