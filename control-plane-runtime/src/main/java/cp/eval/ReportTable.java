package cp.eval;

import cp.model.DisplayText;
import java.util.ArrayList;
import java.util.List;

/**
 * The console table of {@link EvalReports#table}. Pure. Everything in it that comes from a suite or a
 * model (case ids, notes, details, the diff) is shown with its control and format characters escaped
 * ({@link DisplayText}), so a case id cannot break the table's layout or act on the terminal.
 */
final class ReportTable {
  private static final String INDENT = "    ";

  private ReportTable() {}

  static String render(List<CaseReport> reports) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"CASE", "RESULT", "EXPECTATIONS", "COST", "LATENCY"});
    for (CaseReport r : reports) {
      rows.add(new String[] {shown(r.evalCase().id()), ReportSummary.result(r), EvalReports.verdicts(r),
          EvalReports.cost(r.run() == null ? null : r.run().costUsd()), EvalReports.latency(r)});
    }
    int[] width = new int[5];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, rows.get(0), width);
    for (int k = 0; k < reports.size(); k++) {
      CaseReport r = reports.get(k);
      line(out, rows.get(k + 1), width);
      for (String note : EvalReports.toolNotes(r)) {
        out.append(INDENT).append(shown(note)).append('\n');
      }
      if (!r.passed()) {
        for (ExpectationResult x : r.failures()) {
          out.append(INDENT).append(x.name()).append(": ").append(shown(x.detail().replace("\n", " ")))
              .append('\n');
        }
        if (r.run() != null && r.run().error() != null && r.failures().stream().noneMatch(x -> "run".equals(x.name()))) {
          out.append(INDENT).append("run: ").append(shown(r.run().error().replace("\n", " "))).append('\n');
        }
        r.diff().lines().forEach(l -> out.append(INDENT).append(shown(l)).append('\n'));
      }
    }
    out.append(ReportSummary.of(reports).line()).append('\n');
    return out.toString();
  }

  /** One line of text as the table shows it: a newline as {@code \\n}, what acts on a display escaped. */
  static String shown(String text) {
    return DisplayText.escape(text.replace("\n", "\\n"));
  }

  private static void line(StringBuilder out, String[] cells, int[] width) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      l.append(cells[i]);
      if (i < cells.length - 1) {
        l.append(" ".repeat(width[i] - cells[i].length() + 2));
      }
    }
    out.append(l.toString().stripTrailing()).append('\n');
  }
}
