package cp.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.TurnListener;
import cp.gateway.stream.SlowAnthropic;
import cp.gateway.stream.SseBody;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TurnEvent;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 "done when": an Anthropic model that streams its reply slowly (40 deltas, 50 ms
 * apart, over server-sent events) reaches the Java client while it is written — the first delta
 * at least 1 s before the provider's last event — every delta once and in order, and the text
 * the client assembled equals the reply recorded in the ledger's EXCHANGE.
 */
class SlowStreamEndToEndTest {
  static final int DELTAS = 40;
  static final long PAUSE_MS = 50;
  @StartStop final MockWebServer server = new MockWebServer();
  @TempDir Path home;

  @Test
  void aSlowStream_reachesTheClientAsItIsWritten_onceAndInOrder_andEqualsTheLedgersExchange() throws Exception {
    SlowAnthropic model = new SlowAnthropic(DELTAS, PAUSE_MS);
    List<SseBody> streams = model.streams;
    server.setDispatcher(model);
    Map<String, String> env = new HashMap<>(Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "test-key",
        "ANTHROPIC_BASE_URL", server.url("/").toString()));
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, env), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      List<TurnEvent> seen = Collections.synchronizedList(new ArrayList<>());
      long[] firstDeltaAt = {0};
      TurnResult r = plane.client.turn(sid, "explain something slowly", new TurnListener() {
        @Override
        public void onEvent(TurnEvent e) {
          if (TurnEvent.TEXT_DELTA.equals(e.type()) && firstDeltaAt[0] == 0) {
            firstDeltaAt[0] = System.nanoTime();
          }
          seen.add(e);
        }

        @Override
        public boolean wantsEvents() {
          return true;
        }
      });

      assertEquals(TurnOutcome.SUCCESS, r.outcome(), r::toString);
      assertEquals(1, streams.size(), "one streamed synthesize call");
      List<Long> sent = streams.get(0).sentNanos;
      long lastSent = sent.get(sent.size() - 1);
      assertTrue(firstDeltaAt[0] > 0, "a delta reached the client: " + seen);
      double leadSeconds = (lastSent - firstDeltaAt[0]) / 1e9;
      assertTrue(leadSeconds >= 1.0, "the first delta reached the client " + leadSeconds
          + " s before the provider's last event; at least 1 s expected");

      for (int i = 0; i < seen.size(); i++) {
        assertEquals(i + 1, seen.get(i).seq(), "every event once and in order: " + seen);
      }
      assertEquals(TurnEvent.DONE, seen.get(seen.size() - 1).type());
      String assembled = LiveTurnEndToEndTest.replay(seen);
      assertEquals(r.response(), assembled);
      LedgerEntry exchange = plane.runtime.ledgers().hot().byEventType("EXCHANGE").stream()
          .filter(e -> e.metaText("response").contains("response_text")).findFirst().orElseThrow();
      assertEquals(Json.parse(exchange.metaText("response")).path("response_text").asText(), assembled);
      long deltas = seen.stream().filter(e -> TurnEvent.TEXT_DELTA.equals(e.type())).count();
      assertTrue(deltas >= 5, "the reply came in batches, not whole: " + deltas + " deltas");
      assertTrue(deltas < DELTAS, "batched, not one signal per token: " + deltas + " deltas");
      System.out.printf("slow stream: first delta at the client %.2f s before the provider's last event; %d deltas"
          + " for %d provider deltas%n", leadSeconds, deltas, DELTAS + 2);
      assertEquals(model.reply(), assembled);
    }
  }
}
