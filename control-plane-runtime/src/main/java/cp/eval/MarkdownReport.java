package cp.eval;

import java.util.List;

/** The Markdown report: the summary, a table of the cases, and a section per failing case with its diff. Pure. */
final class MarkdownReport {
  private MarkdownReport() {}

  static String render(List<CaseReport> reports) {
    StringBuilder out = new StringBuilder("# Eval report\n\n");
    out.append(cell(ReportSummary.of(reports).line())).append("\n\n");
    out.append("| case | result | expectations | cost | latency |\n|---|---|---|---|---|\n");
    for (CaseReport r : reports) {
      out.append("| ").append(cell(r.evalCase().id())).append(" | ").append(ReportSummary.result(r)).append(" | ")
          .append(cell(EvalReports.verdicts(r))).append(" | ")
          .append(EvalReports.cost(r.run() == null ? null : r.run().costUsd())).append(" | ")
          .append(EvalReports.latency(r)).append(" |\n");
    }
    for (CaseReport r : reports) {
      List<String> notes = EvalReports.toolNotes(r);
      if (r.passed() && notes.isEmpty()) {
        continue;
      }
      out.append("\n## ").append(cell(r.evalCase().id())).append(": ").append(ReportSummary.result(r)).append("\n\n");
      for (ExpectationResult x : r.results()) {
        out.append("- **").append(x.name()).append("** ").append(x.passed() ? "pass" : "FAIL").append(": ")
            .append(cell(x.detail())).append('\n');
      }
      if (r.run() != null && r.run().error() != null) {
        out.append("- **run** error: ").append(cell(r.run().error())).append('\n');
      }
      notes.forEach(n -> out.append("- ").append(cell(n)).append('\n'));
      if (!r.passed() && !r.diff().isEmpty()) {
        String fence = fence(r.diff());
        out.append('\n').append(fence).append("diff\n").append(r.diff());
        if (!r.diff().endsWith("\n")) {
          out.append('\n');
        }
        out.append(fence).append('\n');
      }
    }
    return out.toString();
  }

  /** Text safe inside a table cell or a line: no line breaks, pipes and markup characters escaped. */
  static String cell(String s) {
    StringBuilder out = new StringBuilder();
    for (char c : s.replace("\r", "").replace("\n", " ").toCharArray()) {
      if ("\\`*_[]<>|#".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  /** A code fence longer than any run of backticks in {@code text}, so the text cannot close it. */
  static String fence(String text) {
    int longest = 0;
    int run = 0;
    for (char c : text.toCharArray()) {
      run = c == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return "`".repeat(Math.max(3, longest + 1));
  }
}
