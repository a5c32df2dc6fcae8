package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The benchmark's own command line (its jar's main class, what {@code bin/cpctl bench} runs). */
class BenchCommandTest {
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchCommand.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void help_listsTheMeasuresOptions_exit0() {
    Run r = run("--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("--only") && r.out().contains("--latency-ms"), r.out());
  }

  @Test
  void unknownMeasure_isRefusedInOneLine_exit2() {
    Run r = run("--only", "P10");
    assertEquals(BenchCommand.BAD_INPUT, r.code(), r.err());
    assertEquals("cpctl bench: --only: unknown measure 'P10' (known: P1, P2, P3, P4, P5, P6, P7, P8, P9, B7, HEAP)", r.err().strip());
  }

  @Test
  void unknownOption_isRefusedInOneLine_exit2() {
    Run r = run("--no-such-option");
    assertEquals(BenchCommand.BAD_INPUT, r.code(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
  }
}
