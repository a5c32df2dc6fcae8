package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: the product jar carries no benchmark. {@code cpctl bench} started from the product jar
 * (not through {@code bin/cpctl}, which runs the benchmark's own jar) says where the benchmark is,
 * whatever options it was given.
 */
class BenchHintCommandTest {
  @TempDir Path home;

  @Test
  void bench_inTheProductJar_pointsToTheBenchmarksOwnJar_withExit2() {
    CliHarness.Run r = run(CliHarness.env(home), "bench", "--only", "P1,B7", "--rounds", "3");

    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("'bin/cpctl bench") && r.err().contains(BenchHintCommand.BENCH_JAR), r.describe());
  }

  @Test
  void theProductHasNoBenchmarkClasses() {
    assertThrows(ClassNotFoundException.class, () -> Class.forName("cp.bench.Bench"),
        "the cli module's classpath (the product jar's content) holds no benchmark");
  }
}
