package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.Tier;
import cp.model.Json;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** Every shipped resource loads and validates from the classpath, and carries what the brief promises. */
class ShippedCatalogTest {
  private final Catalog catalog = Catalog.loadDefault();

  @Test
  void defaultCatalog_holdsEveryShippedFileWithItsHash() {
    ResourceSource classpath = ResourceSource.classpath();
    List<String> files = catalog.artifacts().stream().map(InstalledArtifact::file).toList();

    for (String dir : List.of("contracts", "prompts", "agents", "attention", "schemas")) {
      List<ResourceFile> shipped = classpath.list(dir);
      assertFalse(shipped.isEmpty(), dir);
      for (ResourceFile f : shipped) {
        InstalledArtifact a = catalog.artifacts().stream().filter(x -> x.file().equals(f.name())).findFirst()
            .orElseThrow(() -> new AssertionError(f.name() + " missing from " + files));
        assertEquals(f.sha256(), a.sha256(), f.name());
        assertEquals(Json.sha256(f.bytes()), a.sha256(), f.name());
      }
    }
    assertEquals(16, catalog.artifacts().size(), files.toString());
    assertSame(catalog, Catalog.loadDefault());
  }

  @Test
  void artifacts_serializeWithSnakeCaseKinds() {
    JsonNode json = Json.tree(catalog.artifacts());

    Set<String> kinds = StreamSupport.stream(json.spliterator(), false)
        .map(a -> a.get("kind").asText()).collect(Collectors.toSet());
    assertEquals(Set.of("contract", "prompt_pack", "agent", "attention_template", "schema"), kinds);
    assertEquals("PRC-CLASSIFY-001", json.get(0).get("id").asText());
    assertEquals(64, json.get(0).get("sha256").asText().length());
  }

  @Test
  void fourContracts_eachWithItsPromptPack() {
    assertEquals(List.of("PRC-CLASSIFY-001", "PRC-DEGRADED-001", "PRC-EXECUTE-001", "PRC-SYNTHESIZE-001"),
        catalog.contracts().stream().map(PromptContract::contractId).toList());
    for (PromptContract c : catalog.contracts()) {
      PromptPack pack = catalog.promptPack(c.promptPackId());
      assertEquals("ho1", c.tier());
      if (c.structuredOutput()) {
        assertTrue(PromptRenderer.hasInputBlock(pack.user()), pack.promptPackId());
      }
    }
  }

  @Test
  void classifyPrompt_listsEveryEnumValueOfTheOutputSchema() {
    PromptContract classify = catalog.contract("PRC-CLASSIFY-001");
    String system = catalog.promptPack("PRM-CLASSIFY-001").system();

    for (String field : List.of("speech_act", "ambiguity")) {
      for (JsonNode value : classify.outputSchema().at("/properties/" + field + "/enum")) {
        assertTrue(system.contains("\"" + value.asText() + "\""), field + " value " + value + " not explained in the prompt");
      }
    }
    assertTrue(system.contains("ONLY the JSON object"));
  }

  @Test
  void synthesizeContract_hasTheExtendedInputFields() {
    JsonNode input = catalog.contract("PRC-SYNTHESIZE-001").inputSchema();

    assertEquals(List.of("prior_results", "user_input"),
        StreamSupport.stream(input.get("required").spliterator(), false).map(JsonNode::asText).toList());
    for (String field : List.of("assembled_context", "acceptance_criteria", "retry_feedback", "classification")) {
      assertTrue(input.at("/properties").has(field), field);
    }
    assertTrue(catalog.promptPack("PRM-SYNTHESIZE-001").system().contains("{\"response_text\": "));
  }

  @Test
  void adminAgent_hasItsToolsBudgetAndQualityGate() {
    AgentConfig admin = catalog.agent("ADMIN");

    assertEquals(List.of("gate_check", "read_file", "query_ledger", "list_packages", "write_file"), admin.toolIds());
    assertEquals("ATT-ADMIN-001", admin.attentionTemplateId());
    assertEquals(2, admin.qualityGate().maxRetries());
    assertEquals(8000, admin.qualityGate().maxResponseChars());
    assertEquals(100_000, admin.budget().maxMessageBytes());
    assertTrue(admin.budget().woTokenBudget() <= admin.budget().sessionTokenLimit());
    JsonNode queryLedger = admin.tool("query_ledger").orElseThrow().parameters();
    assertEquals(List.of("hot", "ho3", "ho2", "ho1"), texts(queryLedger.at("/properties/tier/enum")));
    assertEquals(1, queryLedger.at("/properties/max_entries/minimum").asInt());
    assertEquals(100, queryLedger.at("/properties/max_entries/maximum").asInt());
    assertEquals(10, queryLedger.at("/properties/max_entries/default").asInt());
    assertEquals("query_ledger", admin.toolDefinitions().get(2).name());
  }

  @Test
  void residentAgent_isNarrowerThanAdmin() {
    AgentConfig admin = catalog.agent("ADMIN");
    AgentConfig resident = catalog.agent("resident");

    assertTrue(admin.toolIds().containsAll(resident.toolIds()));
    assertTrue(resident.toolIds().size() < admin.toolIds().size());
    assertTrue(resident.budget().sessionTokenLimit() < admin.budget().sessionTokenLimit());
    assertTrue(resident.permissions().forbidden().contains("HOT/**"));
    assertEquals(List.of(), resident.permissions().write());
    assertEquals("ATT-RESIDENT-001", resident.attentionTemplateId());
  }

  @Test
  void unknownAgentClass_isAnErrorListingTheKnownClasses() {
    CatalogEntryNotFoundException e = assertThrows(CatalogEntryNotFoundException.class, () -> catalog.agent("GUEST"));

    assertEquals("agent class GUEST not found in agents/ (known: ADMIN, RESIDENT)", e.getMessage());
  }

  @Test
  void attentionTemplates_queryTheSessionConversationAndRecentHo2Events() {
    for (AttentionTemplate t : catalog.attentionTemplates()) {
      List<AttentionStage> queries = t.stages(StageType.LEDGER_QUERY);
      assertTrue(queries.stream().anyMatch(s -> s.config().ledgerTier().orElseThrow() == Tier.HOT
          && "EXCHANGE".equals(s.config().eventType()) && s.config().sessionOnly()), t.templateId());
      assertTrue(queries.stream().anyMatch(s -> s.config().ledgerTier().orElseThrow() == Tier.HO2), t.templateId());
      assertEquals(1, t.stages(StageType.TIER_SELECT).size());
      assertEquals(StageType.HALTING, t.pipeline().get(t.pipeline().size() - 1).type());
    }
    assertEquals(List.of(Tier.HOT, Tier.HO3, Tier.HO2, Tier.HO1),
        catalog.attentionTemplate("ATT-ADMIN-001").stages(StageType.TIER_SELECT).get(0).config().selectedTiers());
    assertEquals(AttentionTemplate.Fallback.PROCEED_EMPTY, catalog.attentionTemplate("ATT-RESIDENT-001").fallback().onEmpty());
  }

  private static List<String> texts(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }
}
