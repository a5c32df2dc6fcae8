package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.SearchAttributeRegistrar;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §3 "Health", as an orchestrator sees it: a separate {@code cpctl worker} process with
 * only {@code CP_METRICS_PORT} set serves {@code /healthz} and {@code /readyz}; {@code /readyz}
 * turns 503 within seconds when the Temporal service (a port-bound embedded service, stopped) or
 * the PostgreSQL ledger database (embedded, stopped) is gone, and 200 again when the database is
 * back, while {@code /healthz} stays 200 throughout.
 */
class WorkerHealthTest {
  /** Readiness probes this often here, so a turn is seen within a second. */
  static final String READY_INTERVAL_MS = "250";
  /** The "within seconds": the probe interval, plus a probe stuck on a gRPC or JDBC timeout. */
  static final Duration TURNS_WITHIN = Duration.ofSeconds(10);

  @TempDir Path home;
  @TempDir Path procs;
  @TempDir Path pgData;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void temporalServiceStopped_readyzTurns503WithinSeconds_healthzStays200() throws Exception {
    int port = CpctlProcesses.freePort();
    int metricsPort = CpctlProcesses.freePort();
    EmbeddedTemporal server = EmbeddedTemporal.onPort(port);
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
      Map<String, String> env = CliHarness.env(home);
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_METRICS_PORT", String.valueOf(metricsPort));
      env.put("CP_READY_INTERVAL_MS", READY_INTERVAL_MS);
      CpctlProcesses.Cli worker = p.start("worker", env, "worker");
      worker.awaitOutput("worker polling");
      worker.awaitOutput("metrics on http://127.0.0.1:" + metricsPort);

      Reply ready = await(metricsPort, "/readyz", r -> r.status() == 200, TURNS_WITHIN, worker);
      assertTrue(ready.body().contains("temporal: ok") && ready.body().contains("ledger: ok"), ready.body());
      assertEquals(200, get(metricsPort, "/healthz").status());

      server.close();
      long stopped = System.nanoTime();
      Reply down = await(metricsPort, "/readyz", r -> r.status() == 503, TURNS_WITHIN, worker);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
      System.out.println("readyz 503 " + millis + " ms after the Temporal service stopped: " + down.body());
      assertTrue(down.body().contains("temporal: FAIL") || down.body().startsWith("stale"), down.body());
      assertEquals(200, get(metricsPort, "/healthz").status(), "the process is alive");
      assertTrue(worker.process.isAlive(), worker.describe());
    } finally {
      server.close();
    }
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void postgresLedgerStopped_readyzTurns503WithinSeconds_andBackTo200WhenItReturns() throws Exception {
    int port = CpctlProcesses.freePort();
    int metricsPort = CpctlProcesses.freePort();
    int pgPort = CpctlProcesses.freePort();
    EmbeddedPostgres pg = startPostgres(pgPort);
    try (EmbeddedTemporal server = EmbeddedTemporal.onPort(port);
        CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
      Map<String, String> env = CliHarness.env(home);
      env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + port);
      env.put("CP_LEDGER_URL", "jdbc:postgresql://localhost:" + pgPort + "/postgres");
      env.put("CP_LEDGER_USER", "postgres");
      env.put("CP_READY_INTERVAL_MS", READY_INTERVAL_MS);
      CpctlProcesses.Cli worker = p.start("worker", env, "worker", "--metrics-port", String.valueOf(metricsPort));
      worker.awaitOutput("worker polling");
      await(metricsPort, "/readyz", r -> r.status() == 200, TURNS_WITHIN, worker);

      pg.close();
      long stopped = System.nanoTime();
      Reply down = await(metricsPort, "/readyz", r -> r.status() == 503, TURNS_WITHIN, worker);
      System.out.println("readyz 503 " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped)
          + " ms after PostgreSQL stopped: " + down.body());
      assertTrue(down.body().contains("ledger: FAIL") || down.body().startsWith("stale"), down.body());
      assertTrue(!down.body().contains("password"), down.body());
      assertEquals(200, get(metricsPort, "/healthz").status());

      pg = startPostgres(pgPort);
      Reply back = await(metricsPort, "/readyz", r -> r.status() == 200, Duration.ofSeconds(30), worker);
      assertTrue(back.body().contains("ledger: ok"), back.body());
    } finally {
      pg.close();
    }
  }

  private EmbeddedPostgres startPostgres(int port) throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(pgData.resolve("pg")).setCleanDataDirectory(false).setPort(port)
        .start();
  }

  record Reply(int status, String body) {}

  private Reply get(int port, String path) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }

  private Reply await(int port, String path, Predicate<Reply> wanted, Duration within, CpctlProcesses.Cli worker)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    Reply last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = get(port, path);
        if (wanted.test(last)) {
          return last;
        }
      } catch (IOException e) {
        last = new Reply(-1, e.toString());
      }
      Thread.sleep(100);
    }
    throw new AssertionError(path + " not as wanted within " + within + "; last: " + last + "\n" + worker.describe());
  }
}
