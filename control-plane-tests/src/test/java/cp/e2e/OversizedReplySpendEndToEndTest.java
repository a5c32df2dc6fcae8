package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.JsonlTenantCounters;
import cp.gateway.SpendReport;
import cp.gateway.TenantCounters;
import cp.ledger.LedgerEntry;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A reply over {@code CP_HTTP_MAX_REPLY_BYTES} was generated and billed by the provider, though the
 * gateway does not read it: budgets are law, so the call is charged at what it reserved (its prompt's
 * estimate plus all of max_tokens at the model's price), its EXCHANGE says the cost is an estimate, and
 * the tenant's counters, the session's dollars and {@code cpctl spend} all count it. Before: the
 * tenant's reservation was released and the EXCHANGE said $0.
 */
class OversizedReplySpendEndToEndTest extends FaultyAnthropicPlaneTest {
  /** Small, so a reply of a few KB is over it. */
  static final int MAX_REPLY_BYTES = 4096;
  static final String INPUT_PER_MTOK = "3";
  static final String OUTPUT_PER_MTOK = "15";
  /** PRC-CLASSIFY-001's max_tokens (contracts/PRC-CLASSIFY-001.json). */
  static final int CLASSIFY_MAX_TOKENS = 500;

  private Path home;

  @BeforeAll
  void start(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    home = dir.resolve("home");
    Path tenants = Files.writeString(dir.resolve("tenants.json"), "{\"tenants\": {\"acme\": {\"daily_usd\": 5.0}}}");
    startPlane(home, Map.of("CP_PRICE_INPUT_PER_MTOK", INPUT_PER_MTOK, "CP_PRICE_OUTPUT_PER_MTOK",
        OUTPUT_PER_MTOK, "CP_BREAKER_FAILURES", "1000", "CP_TENANTS_FILE", tenants.toString(),
        "CP_HTTP_MAX_REPLY_BYTES", String.valueOf(MAX_REPLY_BYTES)));
  }

  @Test
  void aReplyOverTheSizeLimit_isChargedWhatItReserved_inTheExchangeTheTenantTheSessionAndSpend() {
    String big = "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\",\"pad\":\"" + "x".repeat(4 * MAX_REPLY_BYTES)
        + "\"}";
    model.failClassify(List.of(() -> FaultyAnthropic.message(big)));
    String sid = plane.client.startSession("ADMIN", "acme");

    TurnResult r = plane.client.turn(sid, "hello");

    assertEquals(TurnOutcome.DEGRADED, r.outcome(), r::toString);
    assertEquals(1, model.count(FaultyAnthropic.CLASSIFY), "an oversized reply is paid once, never retried");
    List<LedgerEntry> exchanges = plane.runtime.ledgers().hot().bySession(sid).stream()
        .filter(e -> e.eventType().equals("EXCHANGE")).toList();
    LedgerEntry classify = exchanges.stream().filter(e -> "PRC-CLASSIFY-001".equals(e.metaText("contract_id")))
        .findFirst().orElseThrow();
    assertEquals("reply_too_large", classify.metaText("error_code"));
    assertNotNull(classify.meta("cost_usd"), "an oversized reply has a cost: " + brief(classify));
    double charged = classify.meta("cost_usd").asDouble();
    long promptEstimate = classify.meta("input_tokens").asLong();
    assertTrue(promptEstimate > 0, "the prompt's estimate is recorded: " + brief(classify));
    assertEquals(CLASSIFY_MAX_TOKENS, classify.meta("output_tokens").asLong(), "all of max_tokens");
    cp.gateway.Pricing price = plane.runtime.gateway().pricing("anthropic", classify.metaText("model_id")).orElseThrow();
    assertEquals(price.worstCase(promptEstimate, CLASSIFY_MAX_TOKENS), charged,
        1e-12, "charged the reservation: " + brief(classify));
    assertEquals(charged, classify.meta("cost").asDouble(), 1e-12);
    assertTrue(classify.meta("cost_estimated").asBoolean(), brief(classify));
    assertTrue(classify.metaText("cost_basis").contains("not read"), brief(classify));

    double billed = exchanges.stream().mapToDouble(e -> e.meta("cost_usd").asDouble()).sum();
    assertTrue(billed > charged, "the degraded call is priced as well");
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      TenantCounters.Totals t = counters.totals("acme", Instant.now());
      assertEquals(billed, t.daySpent(), 1e-12, "acme's counters hold the oversized reply's charge too");
      assertEquals(0, t.dayReserved(), 1e-12, "nothing left held");
    }
    assertEquals(billed, r.costSummary().cost(), 1e-12, "the session's dollars count it: " + r.costSummary());
    SpendReport spend = SpendReport.of(plane.runtime.ledgers().hot().readAll(), SpendReport.By.TENANT,
        Optional.of("acme"), Optional.empty());
    assertEquals(billed, spend.groups().get(0).spentUsd(), 1e-12, "cpctl spend shows it");
  }

  /** An EXCHANGE's metadata without its prompt, for a failure's message. */
  private static String brief(LedgerEntry e) {
    return e.metadata().deepCopy().without("prompt").toString();
  }
}
