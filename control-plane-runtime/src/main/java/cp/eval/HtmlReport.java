package cp.eval;

import java.util.List;

/** The HTML report: one self-contained page, every text escaped. Pure. */
final class HtmlReport {
  private static final String STYLE = "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
      + "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}.PASS{color:#070}"
      + ".FAIL{color:#b00;font-weight:bold}pre{background:#f6f6f6;padding:8px;overflow-x:auto}"
      + ".add{color:#070}.del{color:#b00}";

  private HtmlReport() {}

  static String render(List<CaseReport> reports) {
    StringBuilder out = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"/>"
        + "<title>Eval report</title><style>" + STYLE + "</style></head>\n<body>\n<h1>Eval report</h1>\n");
    out.append("<p>").append(esc(ReportSummary.of(reports).line())).append("</p>\n");
    out.append("<table>\n<tr><th>case</th><th>result</th><th>expectations</th><th>cost</th><th>latency</th></tr>\n");
    for (CaseReport r : reports) {
      String result = ReportSummary.result(r);
      out.append("<tr><td>").append(esc(r.evalCase().id())).append("</td><td class=\"").append(result).append("\">")
          .append(result).append("</td><td>");
      for (ExpectationResult x : r.results()) {
        out.append("<div><span class=\"").append(x.passed() ? "PASS" : "FAIL").append("\">").append(esc(x.name()))
            .append(' ').append(x.passed() ? "pass" : "FAIL").append("</span>: ").append(esc(x.detail()))
            .append("</div>");
      }
      if (r.run() != null && r.run().error() != null) {
        out.append("<div class=\"FAIL\">run error: ").append(esc(r.run().error())).append("</div>");
      }
      for (String note : EvalReports.toolNotes(r)) {
        out.append("<div>").append(esc(note)).append("</div>");
      }
      out.append("</td><td>").append(esc(EvalReports.cost(r.run() == null ? null : r.run().costUsd())))
          .append("</td><td>").append(esc(EvalReports.latency(r))).append("</td></tr>\n");
      if (!r.passed() && !r.diff().isEmpty()) {
        out.append("<tr><td colspan=\"5\"><pre>");
        r.diff().lines().forEach(l -> out.append(l.startsWith("+") && !l.startsWith("+++") ? "<span class=\"add\">"
            : l.startsWith("-") && !l.startsWith("---") ? "<span class=\"del\">" : "<span>").append(esc(l))
            .append("</span>\n"));
        out.append("</pre></td></tr>\n");
      }
    }
    out.append("</table>\n</body>\n</html>\n");
    return out.toString();
  }

  /** {@code s} with the characters HTML gives meaning to escaped, in text and in attributes. */
  static String esc(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
