package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.CatalogFixture;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.model.SessionState;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 11 item 8 through the real runtime ({@code CP_PROVIDER=anthropic} against a local fake
 * of the Messages API, real ledgers): a degraded turn's figures equal its EXCHANGE records, and a
 * provider that never answers is bounded by the agent's {@code budget.turn_timeout_seconds}
 * (2 s here, from an agent copy under {@code CP_RESOURCES_DIR}), not by the 60 s read timeout.
 */
class TurnCostsAndDeadlineEndToEndTest extends FaultyAnthropicPlaneTest {
  /** The turn deadline of the test agent, in seconds. */
  static final int DEADLINE_SECONDS = 2;
  /** Far above the deadline: without the deadline a hanging call would hold the user this long. */
  static final String READ_TIMEOUT_MS = "60000";
  /** The deadline plus the time a cancelled turn needs to be answered on a busy 2-core machine. */
  static final long ANSWER_WITHIN_MS = DEADLINE_SECONDS * 1000L + 6_000;

  /** A cancelled activity hears of it with its next heartbeat (every 0.5 s at a 2 s heartbeat timeout). */
  static final long CANCELLED_WITHIN_MS = 10_000;


  @BeforeAll
  void start(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path resources = dir.resolve("resources");
    CatalogFixture.copyOfShipped(resources).edit("agents/admin.json",
        a -> {
          ((ObjectNode) a.get("budget")).put("turn_timeout_seconds", DEADLINE_SECONDS);
          // An approval must be able to time out before the turn's deadline (the catalog checks it).
          a.get("tools").forEach(t -> {
            if (t.has("approval_timeout_seconds")) {
              ((ObjectNode) t).put("approval_timeout_seconds", 1);
            }
          });
        });
    startPlane(dir.resolve("home"), Map.of("CP_HTTP_READ_TIMEOUT_MS", READ_TIMEOUT_MS, "CP_RESOURCES_DIR",
        resources.toString(), "CP_PRICE_INPUT_PER_MTOK", "3", "CP_PRICE_OUTPUT_PER_MTOK", "15", "CP_BREAKER_FAILURES",
        "1000"));
  }

  // Issue 11 item 8 (costs): classify answers (tokens, cost), synthesize gets a 400 (not retried),
  // HO2 fails, the degraded call answers. The TurnResult and the session count exactly what the
  // turn's EXCHANGEs hold, and DEGRADATION's tokens are the failed turn's EXCHANGEs'.
  @Test
  void degradedTurn_reportsTheLedgersTokensAndCost() {
    model.failSynthesize(List.of(() -> FaultyAnthropic.error(400, "invalid_request_error", "bad request (test)")));
    String sid = plane.client.startSession("ADMIN");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.DEGRADED, r.outcome(), r::toString);
    List<LedgerEntry> exchanges = ofType(sid, "EXCHANGE");
    assertEquals(3, exchanges.size(), "classify, the failed synthesize, the degraded call: " + exchanges);
    long tokens = exchanges.stream().mapToLong(TurnCostsAndDeadlineEndToEndTest::tokens).sum();
    double cost = exchanges.stream().mapToDouble(e -> e.meta("cost") == null ? 0 : e.meta("cost").asDouble()).sum();
    assertTrue(cost > 0, "priced calls");
    assertEquals(tokens, r.costSummary().totalTokens(), r::toString);
    assertEquals(cost, r.costSummary().cost(), 1e-12, r::toString);
    SessionState st = plane.client.state(sid);
    assertEquals(tokens, st.tokensUsed());
    assertEquals(cost, st.cost(), 1e-12);
    String child = WorkOrderIds.turnWorkflow(sid, 1);
    long failedTurnTokens = exchanges.stream().filter(e -> child.equals(e.metaText("workflow_id")))
        .mapToLong(TurnCostsAndDeadlineEndToEndTest::tokens).sum();
    assertTrue(failedTurnTokens > 0, "the failed turn's classify call cost tokens");
    LedgerEntry degradation = ofType(sid, "DEGRADATION").get(0);
    assertEquals(failedTurnTokens, degradation.meta("tokens_spent_by_failed_turn").asLong());
    assertEquals("admin-001", degradation.metaText("agent_id"));
    assertEquals("ADMIN", degradation.metaText("agent_class"));
  }

  // Issue 11 item 8 (a hanging provider): synthesize never answers. The user gets an honest error
  // about 2 s later instead of after the 60 s read timeout (and its retries), what the turn spent
  // is counted, and the next turn of the same session answers.
  @Test
  void hangingProvider_theTurnDeadlineAnswersPromptly_andTheSessionGoesOn() {
    model.failSynthesize(List.of(() -> new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE)
        .build()));
    String sid = plane.client.startSession("ADMIN");

    long t0 = System.nanoTime();
    TurnResult r = plane.client.turn(sid, "hello");
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;

    System.out.printf("TurnCostsAndDeadlineEndToEndTest: hanging provider, deadline %d s -> answered after %d ms%n",
        DEADLINE_SECONDS, waitedMs);
    assertEquals(TurnOutcome.ERROR, r.outcome(), r::toString);
    assertEquals("turn_deadline_exceeded", r.errorCode());
    assertTrue(r.response().contains("budget.turn_timeout_seconds") && r.response().contains(DEADLINE_SECONDS + " s"),
        r.response());
    assertTrue(waitedMs >= DEADLINE_SECONDS * 1000L, "answered after " + waitedMs + " ms, before the deadline");
    assertTrue(waitedMs < ANSWER_WITHIN_MS, "answered only after " + waitedMs + " ms");
    long spent = ofType(sid, "EXCHANGE").stream().mapToLong(TurnCostsAndDeadlineEndToEndTest::tokens).sum();
    assertTrue(spent > 0, "classify answered before the hang");
    assertEquals(spent, r.costSummary().totalTokens(), "what the turn's EXCHANGEs hold is counted");

    // The hanging call is cancelled, not left to its 60 s read timeout: its failed EXCHANGE
    // (no tokens) is on record within seconds of the deadline.
    long until = System.nanoTime() + CANCELLED_WITHIN_MS * 1_000_000;
    List<LedgerEntry> abandoned = List.of();
    while (abandoned.isEmpty() && System.nanoTime() < until) {
      abandoned = ofType(sid, "EXCHANGE").stream()
          .filter(e -> "PRC-SYNTHESIZE-001".equals(e.metaText("contract_id"))).toList();
      sleep(100);
    }
    assertEquals(1, abandoned.size(), "the hanging synthesize call ended within " + CANCELLED_WITHIN_MS + " ms");
    assertEquals("error", abandoned.get(0).metaText("outcome"), abandoned.get(0)::toString);
    assertEquals(0, tokens(abandoned.get(0)));

    // HO2's ledger says how the cancelled turn ended.
    boolean closed = false;
    for (long end = System.nanoTime() + CANCELLED_WITHIN_MS * 1_000_000; !closed && System.nanoTime() < end; ) {
      closed = plane.runtime.ledgers().ho2("ADMIN").bySession(sid).stream()
          .anyMatch(e -> e.eventType().equals("WO_CHAIN_COMPLETE")
              && "turn_deadline_exceeded".equals(e.metaText("outcome")));
      sleep(100);
    }
    assertTrue(closed, "WO_CHAIN_COMPLETE turn_deadline_exceeded");
    assertTrue(ofType(sid, "DEGRADATION").isEmpty(), "a turn past its deadline does not degrade");

    TurnResult next = plane.client.turn(sid, "hello again");
    assertEquals(TurnOutcome.SUCCESS, next.outcome(), next::toString);
    assertEquals(2, next.turn());
    assertTrue(hot().verify().ok(), hot().verify().reason());
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static long tokens(LedgerEntry e) {
    return e.meta("input_tokens").asLong() + e.meta("output_tokens").asLong();
  }

  private LedgerStream hot() {
    return plane.runtime.ledgers().hot();
  }

  private List<LedgerEntry> ofType(String sid, String type) {
    return hot().bySession(sid).stream().filter(e -> e.eventType().equals(type)).toList();
  }
}
