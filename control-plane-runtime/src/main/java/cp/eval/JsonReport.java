package cp.eval;

import cp.model.Json;
import java.util.List;

/** The JSON report: the summary and every case's report (case, run, results, diff), snake_case. Pure. */
final class JsonReport {
  private JsonReport() {}

  static String render(List<CaseReport> reports) {
    var root = Json.object();
    root.set("summary", Json.tree(ReportSummary.of(reports)));
    root.set("cases", Json.tree(reports));
    return Json.pretty(root) + "\n";
  }
}
