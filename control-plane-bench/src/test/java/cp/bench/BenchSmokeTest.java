package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark works: with tiny settings (1 ms provider latency, one round, a couple of turns)
 * every measure runs and the report holds a complete table with the machine description. This
 * checks nothing about speed; a timed unit test would only measure the machine running the suite.
 */
class BenchSmokeTest {
  @TempDir Path dir;

  @Test
  void tinyRun_reportsEveryMeasureInATableAndWritesTheResultsFile() throws Exception {
    Path out = dir.resolve("results.md");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();

    // No cpctl to start here (the cli is not this module's dependency): B7 says it did not run;
    // control-plane-tests' ChatBenchTest runs it against cpctl processes.
    BenchReport report = Bench.run(BenchOptions.smoke(dir.resolve("home"), out, List.of()), Map.of(),
        new PrintStream(progress, true, StandardCharsets.UTF_8));

    Set<Measure.Id> ids = report.measures().stream().map(Measure::id).collect(Collectors.toSet());
    assertEquals(EnumSet.allOf(Measure.Id.class), ids, "every measure reported");
    assertTrue(report.measures().stream().allMatch(m -> !m.value().isBlank() && !m.value().contains("NaN")),
        report.markdown());
    String file = Files.readString(out, StandardCharsets.UTF_8);
    assertEquals(report.markdown(), file);
    assertTrue(file.contains("| # | measure | result | target | status |"), file);
    assertTrue(file.contains(" CPUs (") && file.contains("JVM: ") && file.contains("load average"), file);
    for (Measure.Id id : Measure.Id.values()) {
      assertTrue(file.contains("| " + id + " | "), id + " missing from\n" + file);
    }
    assertTrue(progress.toString(StandardCharsets.UTF_8).contains("bench: P1"), "progress is reported");
    assertTrue(report.measures().stream().anyMatch(m -> m.id() == Measure.Id.P1
        && m.what().equals("turn latency p50, tracing and metrics on ÷ off") && m.detail().contains("KiB received")
        && !m.detail().contains(" 0 KiB received")), "P1 with tracing and metrics on ÷ off (issue 14), spans exported\n"
        + file);
    assertTrue(report.measures().stream().anyMatch(m -> m.id() == Measure.Id.B7 && m.value().equals("not run")
        && m.detail().contains("--cpctl")), "B7 says why it did not run\n" + file);
    assertTrue(file.contains("| P2 | " + GatewayBench.CLOSING_WHAT + " |"),
        "the P2 variant against a server closing every connection ran (its route() calls all succeeded)\n" + file);
  }
}
