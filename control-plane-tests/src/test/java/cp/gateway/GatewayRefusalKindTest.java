package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.ledger.Durability;
import cp.ledger.Ledger;
import cp.ledger.LedgerOptions;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RefusalKind;
import cp.model.RouteOutcome;
import cp.model.UsdBudgets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the gateway refuses a call for a budget, it says which one, typed (the workflow reads that, not the words). */
class GatewayRefusalKindTest {
  @TempDir Path tmp;

  private PromptResponse route(PromptRequest r) {
    Path home = tmp.resolve("home");
    Ledger hot = Ledger.open(home.resolve("HOT/ledger/governance.jsonl"), LedgerOptions.of(Durability.NONE));
    try (JsonlTenantCounters counters = new JsonlTenantCounters(home)) {
      return TenantSpendConcurrencyTest.gatewayFor(hot, home, new TenantSpendConcurrencyTest.Billing(), counters)
          .route(r);
    }
  }

  private static PromptRequest call() {
    return TenantSpendConcurrencyTest.call("acme", 1);
  }

  @Test
  void aTokenBudget_isTokens() {
    PromptResponse r = route(call().toBuilder().tokenBudgetRemaining(10L).build());
    assertEquals(RouteOutcome.REJECTED, r.outcome());
    assertEquals(RefusalKind.TOKENS, r.refusal());
  }

  @Test
  void theSessionsDollars_areSessionUsd_andTheWorkOrdersAreWorkOrderUsd() {
    assertEquals(RefusalKind.SESSION_USD, route(call().toBuilder().usdBudget(0.0001, UsdBudgets.SESSION).build())
        .refusal());
    assertEquals(RefusalKind.WORK_ORDER_USD, route(call().toBuilder().usdBudget(0.0001, UsdBudgets.WORK_ORDER).build())
        .refusal());
  }

  @Test
  void theTenantsDailyCap_isTenantDay() {
    PromptResponse r = route(call().toBuilder().maxTokens(100_000).build()); // $5 worst case against a $1 day
    assertEquals(RouteOutcome.REJECTED, r.outcome(), r::toString);
    assertEquals(RefusalKind.TENANT_DAY, r.refusal());
  }

  @Test
  void anAnsweredCall_hasNoRefusal() {
    assertEquals(null, route(call()).refusal());
  }
}
