package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl dev-server}: the ways it refuses to start (a started one blocks until killed; see MultiProcessCrashIT). */
class DevServerCommandTest {
  @TempDir Path home;
  @TempDir Path procs;

  /** The first non-loopback IPv4 address of this machine, if it has one. */
  static InetAddress otherLocalAddress() throws Exception {
    for (var nif : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
      for (var a : java.util.Collections.list(nif.getInetAddresses())) {
        if (a instanceof java.net.Inet4Address && !a.isLoopbackAddress()) {
          return a;
        }
      }
    }
    return null;
  }

  // Issue 11 item 7: dev-server listened on 0.0.0.0 (every interface) though it is a development service with no
  // authentication. By default the kernel shows it listening on 127.0.0.1 only, and its start line says so and
  // that the embedded service has no visibility store.
  @Test
  void byDefault_listensOnLoopbackOnly_andSaysItHasNoVisibilityStore() throws Exception {
    int port = CpctlProcesses.freePort();
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var server = p.start("dev-server", CliHarness.env(home), "dev-server", "--port", String.valueOf(port));
      server.awaitOutput("listening on");
      assertEquals(List.of(InetAddress.getByName("127.0.0.1")), ListeningSockets.on(port), server.describe());
      String line = server.stdout().lines().filter(l -> l.contains("listening on")).findFirst().orElseThrow();
      assertTrue(line.contains("listening on 127.0.0.1:" + port), line);
      assertTrue(line.contains("no visibility store") && line.contains("temporal workflow list"), line);
      assertTrue(line.contains("--bind"), "says how to listen elsewhere: " + line);
    }
  }

  @Test
  void withBind_listensOnTheGivenAddress() throws Exception {
    InetAddress other = otherLocalAddress();
    String bind = other == null ? "0.0.0.0" : other.getHostAddress();
    int port = CpctlProcesses.freePort();
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      var server = p.start("dev-server", CliHarness.env(home), "dev-server", "--port", String.valueOf(port),
          "--bind", bind);
      server.awaitOutput("listening on");
      List<InetAddress> bound = ListeningSockets.on(port);
      assertEquals(1, bound.size(), server.describe());
      if (other != null) {
        assertEquals(other, bound.get(0), server.describe());
      } else {
        assertTrue(bound.get(0).isAnyLocalAddress(), bound + "\n" + server.describe());
      }
      assertTrue(server.stdout().contains("listening on " + bind + ":" + port), server.describe());
    }
  }

  @Test
  void bindToAnAddressThatIsNotAHostName_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "dev-server", "--bind", "not an address");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("--bind") && r.err().contains("not an address"), r::describe);
  }

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
