package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/evals}: the shipped suite still verifies against the shipped ledgers with this
 * build's derivation (a change to what freeze derives would otherwise leave the example stale),
 * and an edited reply in it is caught. Runs on a copy: the example is never written.
 */
class EvalExampleTest {
  static final Path EXAMPLE = Path.of("..", "examples", "evals");

  @TempDir Path work;

  @Test
  void shippedSuite_verifiesAgainstShippedLedgers_andAnEditIsCaught() throws IOException {
    Path home = copy(EXAMPLE.resolve("plane"), work.resolve("plane"));
    Path suite = EXAMPLE.resolve("suite.yaml");
    var ok = run(CliHarness.env(home), "eval", "verify", suite.toString());
    assertEquals(Cpctl.OK, ok.code(), ok::describe);
    assertTrue(ok.out().contains("2 case(s): 2 OK"), ok::describe);

    Path edited = Files.writeString(work.resolve("edited.yaml"),
        Files.readString(suite).replace("16 packages are installed:", "15 packages are installed:"));
    var bad = run(CliHarness.env(home), "eval", "verify", edited.toString());
    assertEquals(Cpctl.FAILED, bad.code(), bad::describe);
    assertTrue(bad.out().contains("EDITED") && bad.out().contains("#2") && bad.out().contains("recorded.reply"),
        bad::describe);
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
