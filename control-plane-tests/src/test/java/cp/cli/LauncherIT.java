package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cpctl}, the launcher the README's first command runs (issue 21): the product jar
 * starts with its class-data archive, made once next to the jar, and stdout stays the command's own
 * (no JVM warning there); {@code bench} runs the benchmark's own jar, which the product does not carry.
 * Runs after {@code mvn package} made both jars, so the launcher builds nothing.
 */
class LauncherIT {
  static final long TIMEOUT_S = 180;

  @TempDir Path dir;

  private record Run(int code, String out, String err) {}

  private static Path repo() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("bin/cpctl"))) {
        return p;
      }
    }
    throw new IllegalStateException("no bin/cpctl above " + Path.of("").toAbsolutePath());
  }

  private Run cpctl(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(repo().resolve("bin/cpctl").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("CP_") || k.startsWith("TEMPORAL_"));
    pb.environment().put("CP_HOME", dir.resolve("cp-home").toString());
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(TIMEOUT_S, TimeUnit.SECONDS), "bin/cpctl " + String.join(" ", args) + " finished");
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void version_printsOnlyTheVersion_andTheArchiveServesTheNextStart() throws Exception {
    Run first = cpctl("--version");
    assertEquals(0, first.code(), first.err());
    assertTrue(first.out().matches("cpctl \\S+\\n"), "stdout holds the version alone: " + first.out());
    Path archive = repo().resolve("control-plane-cli/target/control-plane.jsa");
    assertTrue(Files.isRegularFile(archive), "the class-data archive lies next to the jar\n" + first.err());

    Run again = cpctl("--version");
    assertEquals(first.out(), again.out());
    assertFalse(again.err().contains("preparing"), "the archive is made once: " + again.err());
    assertFalse(again.err().contains("[warning]"), "the archive fits the jar and the JVM: " + again.err());
  }

  @Test
  void bench_runsTheBenchmarksOwnJar() throws Exception {
    Run r = cpctl("bench", "--only", "P99");
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("cpctl bench: --only: unknown measure 'P99'"), r.err());
  }
}
