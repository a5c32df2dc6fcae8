package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerOptions;
import cp.model.ContentBlock;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequence seen with the Temporal service unreachable in the middle of a slow model call: the
 * service times the attempt out (no heartbeat reached it) and starts attempt 2 of the same activity
 * on the same worker while attempt 1 is still waiting for the provider. Attempt 2 must not send the
 * call again: it waits for attempt 1, and answers from the EXCHANGE attempt 1 recorded. The call is
 * sent once, recorded once and charged once (the tenant's counters hold its cost). Before: attempt 2
 * sent the call a second time, paid for, while the idempotent EXCHANGE and the shared reservation
 * kept only one of the two.
 */
class GatewayOverlappingAttemptsTest {
  @TempDir Path tmp;

  /** A provider whose first call waits until released; every call is counted. */
  static final class Slow implements LlmProvider {
    final AtomicInteger calls = new AtomicInteger();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String id() {
      return "fake";
    }

    @Override
    public ProviderReply send(PromptRequest r) {
      int n = calls.incrementAndGet();
      entered.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new ProviderReply(List.of(ContentBlock.text("answer " + n)), TokenEstimate.ofPrompt(r), 200,
          TenantSpendConcurrencyTest.MODEL, "stop");
    }
  }

  private static PromptRequest attempt(int attempt) {
    return TenantSpendConcurrencyTest.call("acme", 1).toBuilder().workflowId("SES-00000001/turn-0001")
        .runId("run-1").activityId("act-7").attempt(attempt).build();
  }

  @Test
  void attempt2StartedWhileAttempt1WaitsForTheProvider_reusesAttempt1sAnswer_theCallIsSentAndChargedOnce()
      throws Exception {
    Slow provider = new Slow();
    Path home = tmp.resolve("home");
    Ledger hot = Ledger.open(home.resolve("HOT/ledger/governance.jsonl"), LedgerOptions.of(Durability.NONE));
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      Gateway gateway = TenantSpendConcurrencyTest.gatewayFor(hot, home, provider, counters);
      CompletableFuture<PromptResponse> first = CompletableFuture.supplyAsync(() -> gateway.route(attempt(1)));
      assertTrue(provider.entered.await(10, TimeUnit.SECONDS), "attempt 1 reached the provider");
      CompletableFuture<PromptResponse> second = CompletableFuture.supplyAsync(() -> gateway.route(attempt(2)));
      Thread.sleep(300); // attempt 2 is under way while attempt 1 still waits
      provider.release.countDown();

      PromptResponse r1 = first.get(20, TimeUnit.SECONDS);
      PromptResponse r2 = second.get(20, TimeUnit.SECONDS);

      assertEquals(1, provider.calls.get(), "the call was sent once");
      assertEquals(RouteOutcome.SUCCESS, r2.outcome(), r2::toString);
      assertEquals("answer 1", r2.text(), "attempt 2 answers with attempt 1's reply");
      assertTrue(r2.replayed(), "from the ledger");
      assertFalse(r1.replayed());
      List<LedgerEntry> exchanges = hot.readAll().stream().filter(e -> e.eventType().equals("EXCHANGE")).toList();
      assertEquals(1, exchanges.size(), "one EXCHANGE: " + exchanges);
      double cost = exchanges.get(0).metaNumber("cost_usd");
      assertTrue(cost > 0);
      assertEquals(cost, r2.cost(), 1e-12);
      TenantCounters.Totals t = counters.totals("acme", Instant.now());
      assertEquals(cost, t.daySpent(), 1e-12, "charged once");
      assertEquals(0, t.dayReserved(), 1e-12, "nothing left held");
    }
  }
}
