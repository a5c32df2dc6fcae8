package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23 item 1: the shipped list prices, CP_PRICES_FILE over them, CP_PRICE_* for the models in neither. */
class PriceTableTest {
  @TempDir Path dir;

  @Test
  void shippedTable_pricesTheModelsTheDocsName_andDatedIdsTakeTheirFamilysPrice() {
    PriceTable t = PriceTable.shipped();
    Pricing sonnet = t.forModel("anthropic", ProviderSettings.DEFAULT_ANTHROPIC_MODEL).orElseThrow();
    assertEquals(new Pricing(3.0, 15.0, 0.3, 3.75), sonnet);
    assertEquals(sonnet, t.forModel("anthropic", "claude-sonnet-4-5-20250929").orElseThrow());
    assertEquals(new Pricing(0.15, 0.6, 0.075, 0.15), t.forModel("openai", "gpt-4o-mini-2024-07-18").orElseThrow());
    // the longest family wins: gpt-4o-mini-… is not priced as gpt-4o
    assertEquals(2.5, t.forModel("openai", "gpt-4o-2024-08-06").orElseThrow().inputPerMillion());
    assertEquals(Optional.empty(), t.forModel("openai", "gpt-4ox"), "a prefix must end at a '-'");
    assertEquals(Optional.empty(), t.forModel("anthropic", "some-private-model"));
  }

  @Test
  void pricesFile_json_overridesAndAdds_andCacheKeysDefaultToTheInputPrice() throws Exception {
    Path f = Files.writeString(dir.resolve("prices.json"), """
        {"claude-sonnet-4-5": {"input_per_mtok": 2.0, "output_per_mtok": 10.0, "cache_read_per_mtok": 0.2,
                               "cache_write_per_mtok": 2.5},
         "my-model": {"input_per_mtok": 1.0, "output_per_mtok": 4.0}}""");
    PriceTable t = PriceTable.fromEnv(Map.of(PriceTable.PRICES_FILE, f.toString()), "anthropic");
    assertEquals(new Pricing(2.0, 10.0, 0.2, 2.5), t.forModel("anthropic", "claude-sonnet-4-5").orElseThrow());
    assertEquals(new Pricing(1.0, 4.0, 1.0, 1.0), t.forModel("openai", "my-model").orElseThrow());
    assertEquals(0.15, t.forModel("openai", "gpt-4o-mini").orElseThrow().inputPerMillion(), "the rest stay shipped");
  }

  @Test
  void pricesFile_yaml() throws Exception {
    Path f = Files.writeString(dir.resolve("prices.yaml"), """
        my-model:
          input_per_mtok: 0.5
          output_per_mtok: 1.5
          cache_read_per_mtok: 0.05
          cache_write_per_mtok: 0.6
        """);
    PriceTable t = PriceTable.fromEnv(Map.of(PriceTable.PRICES_FILE, f.toString()), "openai");
    assertEquals(new Pricing(0.5, 1.5, 0.05, 0.6), t.forModel("openai", "my-model").orElseThrow());
  }

  @Test
  void pricesFile_unknownKey_isAnErrorNamingTheVariableTheModelAndTheKey() throws Exception {
    Path f = Files.writeString(dir.resolve("prices.json"), "{\"my-model\": {\"input\": 1.0, \"output_per_mtok\": 2}}");
    ProviderConfigException e = assertThrows(ProviderConfigException.class,
        () -> PriceTable.fromEnv(Map.of(PriceTable.PRICES_FILE, f.toString()), "openai"));
    assertEquals(PriceTable.PRICES_FILE, e.variable());
    assertTrue(e.getMessage().contains("my-model") && e.getMessage().contains("'input'"), e.getMessage());
  }

  @Test
  void pricesFile_negativeOrMissingPrice_andUnreadableFile_areErrors() throws Exception {
    Path neg = Files.writeString(dir.resolve("neg.json"), "{\"m\": {\"input_per_mtok\": -1, \"output_per_mtok\": 2}}");
    assertTrue(assertThrows(ProviderConfigException.class, () -> PriceTable.fromEnv(
        Map.of(PriceTable.PRICES_FILE, neg.toString()), "openai")).getMessage().contains("input_per_mtok must be"));
    Path missing = Files.writeString(dir.resolve("m.json"), "{\"m\": {\"input_per_mtok\": 1}}");
    assertTrue(assertThrows(ProviderConfigException.class, () -> PriceTable.fromEnv(
        Map.of(PriceTable.PRICES_FILE, missing.toString()), "openai")).getMessage().contains("output_per_mtok is"));
    assertTrue(assertThrows(ProviderConfigException.class, () -> PriceTable.fromEnv(
        Map.of(PriceTable.PRICES_FILE, dir.resolve("absent.json").toString()), "openai")).getMessage()
        .endsWith(": no such file"));
  }

  @Test
  void cpPriceVariables_priceTheWorkersProvidersUnlistedModels_only() {
    PriceTable t = PriceTable.fromEnv(Map.of(PriceTable.PRICE_INPUT, "4", PriceTable.PRICE_OUTPUT, "8"), "openai");
    assertEquals(new Pricing(4, 8), t.forModel("openai", "llama3.1:8b").orElseThrow());
    assertEquals(0.15, t.forModel("openai", "gpt-4o-mini").orElseThrow().inputPerMillion(), "the table wins");
    assertEquals(Optional.empty(), t.forModel("openai@WEATHER", "llama3.1:8b"));
    assertEquals(Optional.empty(), PriceTable.fromEnv(Map.of(), "openai").forModel("openai", "llama3.1:8b"));
    assertThrows(ProviderConfigException.class, () -> PriceTable.fromEnv(Map.of(PriceTable.PRICE_INPUT, "x"), "o"));
  }

  @Test
  void cost_pricesCacheReadsAndWritesApart_fromTheInputTokensTheyArePartOf() {
    Pricing p = new Pricing(3.0, 15.0, 0.3, 3.75);
    // 1112 input of which 1000 read from and 100 written to the cache, 50 output
    double expected = (12 * 3.0 + 1000 * 0.3 + 100 * 3.75 + 50 * 15.0) / 1_000_000.0;
    assertEquals(expected, p.cost(1112, 50, 1000, 100), 1e-15);
    assertEquals((1112 * 3.75 + 50 * 15.0) / 1_000_000.0, p.worstCase(1112, 50), 1e-15);
  }
}
