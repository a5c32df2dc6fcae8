package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A budget refusal's typed kind: written with the refusal where one is known, and read from the
 * refusal's words (the rule the workflow used before) where a result recorded before the kinds has
 * none, with the same answers the old predicates gave.
 */
class RefusalKindTest {
  @Test
  void fromText_agreesWithTheOldPredicates_forEveryLevel() {
    Map<String, RefusalKind> cases = Map.of(
        UsdBudgets.refusal(UsdBudgets.WORK_ORDER, 0.1, 0.2, "x"), RefusalKind.WORK_ORDER_USD,
        UsdBudgets.refusal(UsdBudgets.SESSION, 0.1, 0.2, "x"), RefusalKind.SESSION_USD,
        UsdBudgets.refusal(UsdBudgets.TENANT_DAY, 0.1, 0.2, "x"), RefusalKind.TENANT_DAY,
        UsdBudgets.refusal(UsdBudgets.TENANT_MONTH, 0.1, 0.2, "x"), RefusalKind.TENANT_MONTH,
        UsdBudgets.unpricedRefusal(UsdBudgets.TENANT_DAY, "m-1"), RefusalKind.UNPRICED_TENANT,
        UsdBudgets.unpricedRefusal(UsdBudgets.SESSION, "m-1"), RefusalKind.UNPRICED,
        "the budget has 10 tokens left and this call reserves about 900; it was not sent", RefusalKind.OTHER);
    cases.forEach((message, kind) -> {
      RefusalKind k = RefusalKind.fromText(message);
      assertEquals(kind, k, message);
      assertEquals(UsdBudgets.isRefusal(message), k.usd(), message);
      assertEquals(UsdBudgets.isTenantRefusal(message), k.tenant(), message);
      assertEquals(UsdBudgets.isUnpricedRefusal(message), k.unpriced(), message);
    });
  }

  @Test
  void aRefusedResult_writesItsKind_andOneRecordedWithoutIt_readsItFromItsWords() {
    var typed = new LlmRoundResult.Refused("budget_exhausted", "worded otherwise", "LED-1", "m",
        RefusalKind.TENANT_MONTH);
    String json = Json.write(typed);
    assertTrue(json.contains("\"refusal\":\"tenant_month\""), json);
    var back = (LlmRoundResult.Refused) Json.convert(Json.parse(json), LlmRoundResult.class);
    assertEquals(RefusalKind.TENANT_MONTH, back.refusalKind());

    String old = "{\"kind\":\"refused\",\"code\":\"budget_exhausted\",\"message\":\""
        + UsdBudgets.refusal(UsdBudgets.SESSION, 0.1, 0.2, "x") + "\"}";
    var recorded = (LlmRoundResult.Refused) Json.convert(Json.parse(old), LlmRoundResult.class);
    assertNull(recorded.refusal());
    assertEquals(RefusalKind.SESSION_USD, recorded.refusalKind());
  }

  @Test
  void aWoError_keepsItsKindAcrossJson_andLeavesItOutWhenThereIsNone() {
    WoError typed = new WoError("budget_exhausted", "worded otherwise", RefusalKind.UNPRICED);
    assertEquals(RefusalKind.UNPRICED, Json.convert(Json.parse(Json.write(typed)), WoError.class).refusalKind());
    String plain = Json.write(new WoError("budget_exhausted", "no"));
    assertFalse(plain.contains("refusal"), plain);
    assertEquals(RefusalKind.OTHER, Json.convert(Json.parse(plain), WoError.class).refusalKind());
    assertEquals(RefusalKind.OTHER, RefusalKind.ofWire("some_future_level"));
  }
}
