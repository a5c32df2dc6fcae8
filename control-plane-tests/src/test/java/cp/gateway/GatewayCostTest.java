package cp.gateway;

import static cp.gateway.GatewayHarness.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.ContentBlock;
import cp.model.PromptResponse;
import cp.observability.Telemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23 item 1: every EXCHANGE records its cost in USD from the usage the provider reported, cache tokens too. */
class GatewayCostTest {
  @TempDir Path dir;
  private GatewayHarness h;

  @BeforeEach
  void setUp() {
    h = new GatewayHarness(dir);
  }

  @AfterEach
  void tearDown() {
    h.verifyChainAndClose();
  }

  private Gateway priced(Map<String, String> env) {
    return h.gatewayWith(h.provider, Telemetry.NOOP,
        new GatewayConfig(GatewayHarness.PROVIDER, PriceTable.fromEnv(env, GatewayHarness.PROVIDER)));
  }

  @Test
  void exchange_recordsCostUsd_ofTheModelThatAnswered_withCacheTokensAtTheirPrices() throws Exception {
    Path prices = Files.writeString(dir.resolve("prices.json"), "{\"" + GatewayHarness.MODEL + "\": {\"input_per_mtok\":"
        + " 3.0, \"output_per_mtok\": 15.0, \"cache_read_per_mtok\": 0.3, \"cache_write_per_mtok\": 3.75}}");
    h.provider.answers(new ProviderReply(List.of(ContentBlock.text("ok")), 1112, 50, GatewayHarness.MODEL, "stop")
        .withCache(1000, 100));

    PromptResponse r = priced(Map.of(PriceTable.PRICES_FILE, prices.toString())).route(request().build());

    double expected = (12 * 3.0 + 1000 * 0.3 + 100 * 3.75 + 50 * 15.0) / 1_000_000.0;
    ObjectNode m = h.onlyExchange();
    assertEquals(expected, m.get("cost_usd").asDouble(), 1e-15);
    assertEquals(expected, m.get("cost").asDouble(), 1e-15);
    assertEquals(1000, m.get("cache_read_tokens").asLong());
    assertEquals(100, m.get("cache_write_tokens").asLong());
    assertEquals(expected, r.cost(), 1e-15);
  }

  @Test
  void modelWithNoPrice_recordsCostUnknown_notAMadeUpFigure() {
    h.provider.answers(GatewayHarness.reply("ok"));

    PromptResponse r = priced(Map.of()).route(request().build());

    ObjectNode m = h.onlyExchange();
    assertTrue(m.get("cost_unknown").asBoolean());
    assertFalse(m.has("cost_usd"));
    assertEquals(0.0, r.cost());
  }

  @Test
  void cpPriceVariables_priceAModelNotInTheTable() {
    h.provider.answers(GatewayHarness.reply("ok"));

    priced(Map.of(PriceTable.PRICE_INPUT, "2", PriceTable.PRICE_OUTPUT, "6")).route(request().build());

    double expected = (GatewayHarness.IN * 2.0 + GatewayHarness.OUT * 6.0) / 1_000_000.0;
    assertEquals(expected, h.onlyExchange().get("cost_usd").asDouble(), 1e-15);
  }

  @Test
  void dollarBudget_aCallWhoseWorstCaseDoesNotFit_isNotSent_andTheRefusalNamesTheLevel() {
    h.provider.answers(GatewayHarness.reply("ok"));
    Gateway g = priced(Map.of(PriceTable.PRICE_INPUT, "3", PriceTable.PRICE_OUTPUT, "15"));
    // max_tokens 1024 alone may cost 1024 * $15/Mtok = $0.01536: more than the $0.01 left.
    PromptResponse r = g.route(request().maxTokens(1024).usdBudget(0.01, "session").build());

    assertEquals(cp.model.RouteOutcome.REJECTED, r.outcome());
    assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode());
    assertTrue(r.errorMessage().startsWith("USD budget (session) has $0.0100 left"), r.errorMessage());
    assertEquals(0, h.provider.calls(), "nothing was sent");
    assertEquals(0, h.exchanges().size());
  }

  @Test
  void dollarBudget_aCallThatFits_isSent_andItsCostIsTheReportedUsage() {
    h.provider.answers(GatewayHarness.reply("ok"));
    Gateway g = priced(Map.of(PriceTable.PRICE_INPUT, "3", PriceTable.PRICE_OUTPUT, "15"));

    PromptResponse r = g.route(request().maxTokens(256).usdBudget(0.01, "work_order").build());

    assertEquals(cp.model.RouteOutcome.SUCCESS, r.outcome());
    assertEquals((GatewayHarness.IN * 3.0 + GatewayHarness.OUT * 15.0) / 1_000_000.0, r.cost(), 1e-15);
  }

  @Test
  void dollarBudget_onAModelWithNoPrice_isNotSent() {
    h.provider.answers(GatewayHarness.reply("ok"));

    PromptResponse r = priced(Map.of()).route(request().usdBudget(100.0, "work_order").build());

    assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode());
    assertTrue(r.errorMessage().contains("has no price"), r.errorMessage());
    assertEquals(0, h.provider.calls());
  }

  @Test
  void dollarBudget_onAModelWithNoPrice_saysTheFixIsAPrice_neverAnInfiniteReservation() {
    h.provider.answers(GatewayHarness.reply("ok"));

    PromptResponse r = priced(Map.of()).route(request().model("mystery-1").usdBudget(100.0, "work_order").build());

    assertFalse(r.errorMessage().contains("Infinity"), r.errorMessage());
    assertTrue(r.errorMessage().startsWith("USD budget (work_order) cannot be kept for this call: model 'mystery-1'"
        + " has no price; add its price to CP_PRICES_FILE"), r.errorMessage());
    assertTrue(cp.model.UsdBudgets.isRefusal(r.errorMessage()), "still read as a dollar budget's refusal");
  }

  @Test
  void failedExchange_costsNothing_andSaysSoInUsd() {
    h.provider.fails(GatewayHarness.providerError(ProviderErrorKind.OVERLOADED, 529, null, "overloaded"));
    h.routeFailing(request());
    assertEquals(0.0, h.onlyExchange().get("cost_usd").asDouble());
  }
}
