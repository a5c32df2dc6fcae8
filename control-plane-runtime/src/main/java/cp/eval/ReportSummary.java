package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The totals of a run of a suite: cases, passed, failed, what the runs cost (null when a run's
 * cost is unknown) and their summed latency.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReportSummary(int cases, int passed, int failed, Double costUsd, long latencyMs) {
  /** The totals of {@code reports}. */
  public static ReportSummary of(List<CaseReport> reports) {
    int passed = (int) reports.stream().filter(CaseReport::passed).count();
    boolean unknown = reports.stream().anyMatch(r -> r.run() == null || r.run().costUsd() == null);
    double cost = reports.stream().filter(r -> r.run() != null && r.run().costUsd() != null)
        .mapToDouble(r -> r.run().costUsd()).sum();
    long latency = reports.stream().filter(r -> r.run() != null).mapToLong(r -> r.run().latencyMs()).sum();
    return new ReportSummary(reports.size(), passed, reports.size() - passed, unknown && cost == 0 ? null : cost,
        latency);
  }

  /** {@code 3 case(s): 2 passed, 1 failed; cost $0.0012; latency 1452 ms}. */
  public String line() {
    return String.format(Locale.ROOT, "%d case(s): %d passed, %d failed; cost %s; latency %d ms", cases, passed,
        failed, EvalReports.cost(costUsd), latencyMs);
  }

  /** Whether every case passed. */
  public boolean allPassed() {
    return failed == 0;
  }

  /** The words for a case's result. */
  static String result(CaseReport r) {
    Objects.requireNonNull(r, "report");
    return r.passed() ? "PASS" : "FAIL";
  }
}
