package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ForwardingProvider;
import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderReply;
import cp.model.PromptRequest;
import cp.worker.EmbeddedTemporal;
import cp.worker.PlaneConfig;
import cp.worker.PlaneRuntime;
import cp.worker.PlaneWorker;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.TemporalConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client waiting for a turn when its Temporal service goes away for good gives up in bounded
 * time with one clear message, instead of waiting for the SDK's own retries (about a minute) and
 * reporting a bare workflow id.
 */
class ServiceLossTest {
  /** The client's patience in this test; production uses DEFAULT_SERVICE_LOST_AFTER. */
  static final Duration LOST_AFTER = Duration.ofSeconds(3);
  /** The watch looks every WATCH_INTERVAL, so giving up may take that much longer, plus scheduling. */
  static final Duration SLACK = ControlPlaneClient.WATCH_INTERVAL.plusSeconds(3);

  @TempDir Path home;
  private final CountDownLatch inFlight = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private EmbeddedTemporal server;
  private PlaneRuntime runtime;
  private TemporalConnection conn;
  private PlaneWorker worker;

  @AfterEach
  void stop() {
    release.countDown();
    if (worker != null) {
      worker.kill();
    }
    if (conn != null) {
      conn.close();
    }
    if (runtime != null) {
      runtime.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** The offline model, except that the first call waits until the test releases it. */
  private LlmProvider holdingFirstCall() {
    return new ForwardingProvider(new OfflineProvider()) {
      @Override
      public ProviderReply send(PromptRequest request) throws cp.gateway.ProviderException {
        if (inFlight.getCount() > 0) {
          inFlight.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.send(request);
      }
    };
  }

  @Test
  void serviceGoneForGoodWhileATurnRuns_theClientGivesUpInBoundedTimeSayingSo() throws Exception {
    int port = freePort();
    server = EmbeddedTemporal.onPort(port);
    SearchAttributeRegistrar.ensure(server.operator(), PlaneConfig.DEFAULT_NAMESPACE);
    PlaneConfig config = PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "CP_PROVIDER", "offline",
        "TEMPORAL_ADDRESS", "127.0.0.1:" + port));
    runtime = PlaneRuntime.open(config, holdingFirstCall(), PlaneRuntime::builtinTools, Clock.systemUTC());
    conn = TemporalConnection.open(config);
    worker = PlaneWorker.start(conn, runtime, "test");
    ControlPlaneClient client = new ControlPlaneClient(conn.client(), config.worker().taskQueue(),
        runtime.catalog().agentClasses(), 0, LOST_AFTER);
    String sid = client.startSession("ADMIN");
    CompletableFuture<?> turn = CompletableFuture.supplyAsync(() -> client.turn(sid, "hello"));
    assertTrue(inFlight.await(20, TimeUnit.SECONDS), "the turn's first LLM call never started");

    server.close();
    long goneAt = System.nanoTime();
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> turn.get(LOST_AFTER.plus(SLACK).plus(SLACK).toMillis(), TimeUnit.MILLISECONDS));
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - goneAt);

    ClientException ce = (ClientException) e.getCause();
    assertEquals(ClientException.Kind.UNAVAILABLE, ce.kind());
    System.out.println("ServiceLossTest: gave up " + ms + " ms after the service died: " + ce.getMessage());
    assertTrue(ce.getMessage().startsWith("lost the Temporal service at 127.0.0.1:" + port
        + " while waiting for a turn on " + sid), ce.getMessage());
    assertTrue(ce.getMessage().contains("ledgers record what it did"), ce.getMessage());
    // Issue 12: a library names no command; cpctl adds "'cpctl show SID'" itself.
    assertTrue(!ce.getMessage().contains("cpctl"), ce.getMessage());
    assertEquals(sid, ce.sessionId());
    assertTrue(ms < LOST_AFTER.plus(SLACK).toMillis(), "gave up after " + ms + " ms");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
