package cp.eval;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The reports of a run of a suite: the console table, JUnit XML for CI, and a report file whose
 * extension says its form ({@code .html}/{@code .htm}, {@code .md}, {@code .json}). Files are
 * written whole or not at all. Stateless and thread-safe.
 */
public final class EvalReports {
  /** The console table: a line per case with each expectation's pass/FAIL, cost and latency, the diff under failing cases. */
  public String table(List<CaseReport> reports) {
    return ReportTable.render(reports);
  }

  /**
   * Checks that {@code file} can be written, before a run spends its cases' calls.
   *
   * @throws SuiteFileException naming the file and why it cannot be written
   */
  public void checkWritable(Path file) {
    FileWrites.checkWritable(file);
  }

  /** JUnit XML: one testsuite, one testcase per case, a failure per failing case with its expectations and diff. */
  public void junit(List<CaseReport> reports, Path file) {
    FileWrites.replace(file, JunitReport.render(reports).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The report in the form {@code report}'s extension names.
   *
   * @throws IllegalArgumentException for another extension, before anything is written
   */
  public void write(List<CaseReport> reports, Path report) {
    String name = report.getFileName() == null ? "" : report.getFileName().toString().toLowerCase(Locale.ROOT);
    String text;
    if (name.endsWith(".html") || name.endsWith(".htm")) {
      text = HtmlReport.render(reports);
    } else if (name.endsWith(".md")) {
      text = MarkdownReport.render(reports);
    } else if (name.endsWith(".json")) {
      text = JsonReport.render(reports);
    } else {
      throw new SuiteFileException(report.toString(), "", "a report must end in .html, .md or .json");
    }
    FileWrites.replace(report, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Each expectation as {@code name pass} or {@code name FAIL}, joined. */
  static String verdicts(CaseReport r) {
    if (r.results().isEmpty()) {
      return "(nothing expected)";
    }
    return r.results().stream().map(x -> x.name() + " " + (x.passed() ? "pass" : "FAIL"))
        .collect(Collectors.joining(", "));
  }

  /** Notes a report shows beside a case: the tools replayed from the record and calls with no recording. */
  static List<String> toolNotes(CaseReport r) {
    if (r.run() == null) {
      return List.of("not run");
    }
    List<String> notes = new java.util.ArrayList<>();
    if (!r.run().replayedTools().isEmpty()) {
      notes.add("replayed tools: " + String.join(", ", r.run().replayedTools()));
    }
    if (!r.run().unrecordedToolCalls().isEmpty()) {
      notes.add("tool calls with no recording: " + String.join(", ", r.run().unrecordedToolCalls()));
    }
    if (!r.run().notApprovedToolCalls().isEmpty()) {
      notes.add("not run, approval denied or timed out: " + String.join(", ", r.run().notApprovedToolCalls()));
    }
    return notes;
  }

  static String cost(Double usd) {
    return usd == null ? "unknown" : ExpectationChecker.usd(usd);
  }

  static String latency(CaseReport r) {
    return r.run() == null ? "-" : r.run().latencyMs() + " ms";
  }
}
