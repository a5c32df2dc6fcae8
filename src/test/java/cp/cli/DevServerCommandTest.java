package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl dev-server}: the ways it refuses to start (a started one blocks until killed; see MultiProcessCrashIT). */
class DevServerCommandTest {
  @TempDir Path home;

  @Test
  void portOutOfRange_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "dev-server", "--port", "70000");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("70000"), r::describe);
  }

  @Test
  void portThatIsNotANumber_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "dev-server", "--port", "http");
    assertOneLineError(r, Cpctl.BAD_INPUT);
  }

  @Test
  void portInUse_isRefusedInOneLineSuggestingAnotherPort() throws Exception {
    try (ServerSocket busy = new ServerSocket(0)) {
      var r = assertTimeoutPreemptively(Duration.ofSeconds(30),
          () -> run(CliHarness.env(home), "dev-server", "--port", String.valueOf(busy.getLocalPort())));
      assertOneLineError(r, Cpctl.BAD_INPUT);
      assertTrue(r.err().contains("cannot serve on port " + busy.getLocalPort()) && r.err().contains("--port"),
          r::describe);
    }
  }
}
