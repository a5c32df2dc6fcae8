package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * B7 works (issue 21): with a tiny setting (one chat of 3 turns, 1 ms provider latency) it starts a
 * real, separate {@code cpctl chat} process (from this test's classpath), feeds it through a pipe,
 * and reports the ratio, a step table over every turn and one over turn 1 alone, whose steps were all
 * found. Nothing here is about speed.
 */
class ChatBenchTest {
  @TempDir Path dir;

  @Test
  void tinyChat_reportsTheRatioAndEveryStep() throws Exception {
    List<String> cpctl = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "cp.cli.Cpctl");
    BenchOptions o = BenchOptions.smoke(dir.resolve("home"), dir.resolve("results.md"), cpctl)
        .only(Set.of(Measure.Id.B7));
    ByteArrayOutputStream progress = new ByteArrayOutputStream();

    BenchReport report = Bench.run(o, Map.of(), new PrintStream(progress, true, StandardCharsets.UTF_8));

    List<Measure> b7 = report.measures();
    assertTrue(b7.stream().allMatch(m -> m.id() == Measure.Id.B7), report.markdown());
    Measure ratio = b7.get(0);
    assertEquals(ChatBench.WHAT, ratio.what(), report.markdown());
    assertTrue(ratio.value().matches("\\d+\\.\\d{3}x"), report.markdown());
    assertTrue(ratio.detail().contains("1 chat process(es) × 3 turns, 6 provider calls a chat"), report.markdown());
    assertEquals(1 + 2 * ChatTimeline.Step.values().length, b7.size(), report.markdown());
    for (ChatTimeline.Step s : ChatTimeline.Step.values()) {
      assertTrue(b7.stream().anyMatch(m -> m.what().equals("step: " + s.what)
          && m.detail().contains("over 3 turns (every turn, 0 not decomposable)")), s + " in\n" + report.markdown());
      assertTrue(b7.stream().anyMatch(m -> m.what().equals("turn 1 step: " + s.what)
          && m.detail().contains("over 1 turns (turn 1, 0 not decomposable)")), s + " in\n" + report.markdown());
    }
  }
}
