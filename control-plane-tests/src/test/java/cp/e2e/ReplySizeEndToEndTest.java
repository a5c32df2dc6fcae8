package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reply far over the size limit, through a whole session: the classify call gets a 4 MB
 * answer. It is sent once (a retry would pay for the same reply again), recorded as an error
 * EXCHANGE with {@code reply_too_large} and a message naming the limit and its variable, and the
 * session degrades to one direct call instead of timing the activity out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplySizeEndToEndTest {
  static final int FOUR_MB = 4 * 1024 * 1024;

  private final FaultyAnthropic model = new FaultyAnthropic();
  private final MockWebServer server = new MockWebServer();
  private PlaneFixture plane;

  @BeforeAll
  void startPlane(@TempDir Path home) throws Exception {
    server.setDispatcher(model);
    server.start(InetAddress.getLoopbackAddress(), 0);
    plane = PlaneFixture.start(ProviderFaultsEndToEndTest.anthropicEnv(home, "http://127.0.0.1:" + server.getPort(),
        Map.of("CP_BREAKER_FAILURES", "1000")), PlaneRuntime::builtinTools);
  }

  @AfterAll
  void stopPlane() {
    if (plane != null) {
      plane.close();
    }
    server.close();
  }

  @Test
  void fourMegabyteReply_isRefusedOnceNamingTheLimit_andTheSessionDegrades() {
    String huge = "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\",\"pad\":\"" + "x".repeat(FOUR_MB) + "\"}";
    model.failClassify(List.of(() -> FaultyAnthropic.message(huge)));
    String sid = plane.client.startSession("ADMIN");

    long start = System.nanoTime();
    TurnResult r = plane.client.turn(sid, "hello");
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("ReplySizeEndToEndTest: 4 MB classify reply -> %s in %d ms, classify sent %d times%n",
        r.outcome(), ms, model.count(FaultyAnthropic.CLASSIFY));

    assertEquals(1, model.count(FaultyAnthropic.CLASSIFY), "an oversized reply is paid once, never retried");
    List<LedgerEntry> classify = exchanges(sid, "PRC-CLASSIFY-001");
    assertEquals(1, classify.size());
    LedgerEntry e = classify.get(0);
    assertEquals("error", e.metaText("outcome"));
    assertEquals("reply_too_large", e.metaText("error_code"));
    assertEquals(200, e.meta("http_status").asInt());
    assertEquals(1, e.meta("attempt").asInt());
    String msg = e.metaText("error_message");
    assertTrue(msg.contains("reply from anthropic was over 524288 bytes (CP_HTTP_MAX_REPLY_BYTES)"), msg);
    assertEquals(TurnOutcome.DEGRADED, r.outcome(), r::toString);
    assertEquals(FaultyAnthropic.DEGRADED_ANSWER, r.response());
    List<LedgerEntry> degradations = hot().bySession(sid).stream()
        .filter(x -> x.eventType().equals("DEGRADATION")).toList();
    assertEquals(1, degradations.size());
    String why = degradations.get(0).metaText("error_message");
    assertTrue(why.contains("REPLY_TOO_LARGE") && why.contains("CP_HTTP_MAX_REPLY_BYTES"),
        "DEGRADATION names the cause: " + why);
    assertFalse(why.contains("timed out"), why);
    assertTrue(hot().verify().ok(), hot().verify().reason());
  }

  private LedgerStream hot() {
    return plane.runtime.ledgers().hot();
  }

  private List<LedgerEntry> exchanges(String sid, String contract) {
    return hot().bySession(sid).stream().filter(x -> x.eventType().equals("EXCHANGE"))
        .filter(x -> contract.equals(x.metaText("contract_id"))).toList();
  }
}
