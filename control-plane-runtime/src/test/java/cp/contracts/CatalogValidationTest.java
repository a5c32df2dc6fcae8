package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad file in any catalog directory stops the load, and the error names the file and the field. */
class CatalogValidationTest {
  @TempDir Path dir;
  private CatalogFixture fixture;

  @BeforeEach
  void copyShippedCatalog() {
    fixture = CatalogFixture.copyOfShipped(dir);
  }

  private List<String> problems() {
    CatalogException e = assertThrows(CatalogException.class, fixture::load);
    return e.problems();
  }

  private static void assertProblem(List<String> problems, String expected) {
    assertTrue(problems.contains(expected), "expected problem\n  " + expected + "\nin\n  " + String.join("\n  ", problems));
  }

  @Test
  void unmodifiedCopy_loadsFromADirectory() {
    Catalog catalog = fixture.load();

    assertEquals(4, catalog.contracts().size());
    assertTrue(catalog.source().startsWith("directory "));
  }

  @Test
  void contractWithZeroMaxTokens_isRefusedNamingFileAndField() {
    fixture.edit("contracts/PRC-CLASSIFY-001.json", c -> ((ObjectNode) c.get("boundary")).put("max_tokens", 0));

    assertEquals(List.of("contracts/PRC-CLASSIFY-001.json: boundary.max_tokens: must have a minimum value of 1"), problems());
  }

  @Test
  void contractWithTypoInBoundaryField_isRefused() {
    fixture.edit("contracts/PRC-CLASSIFY-001.json", c -> ((ObjectNode) c.get("boundary")).put("temprature", 0.5));

    assertProblem(problems(), "contracts/PRC-CLASSIFY-001.json: boundary.temprature: property 'temprature' is not defined "
        + "in the schema and the schema does not allow additional properties");
  }

  @Test
  void contractWhoseInputSchemaIsNotAJsonSchema_isRefused() {
    fixture.edit("contracts/PRC-EXECUTE-001.json", c ->
        ((ObjectNode) c.at("/input_schema/properties/user_input")).put("type", "strin"));

    assertProblem(problems(), "contracts/PRC-EXECUTE-001.json: input_schema.properties.user_input.type: "
        + "does not have a value in the enumeration [\"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", \"string\"]");
  }

  @Test
  void contractWhosePatternDoesNotCompile_isRefused() {
    fixture.edit("contracts/PRC-EXECUTE-001.json", c ->
        ((ObjectNode) c.at("/output_schema/properties/result")).put("pattern", "(unclosed"));

    List<String> problems = problems();
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("contracts/PRC-EXECUTE-001.json: output_schema: schema does not compile: "),
        problems.toString());
  }

  @Test
  void plainTextContractWithObjectOutputSchema_isRefused() {
    fixture.edit("contracts/PRC-DEGRADED-001.json", c -> ((ObjectNode) c.get("output_schema")).put("type", "object"));

    assertProblem(problems(), "contracts/PRC-DEGRADED-001.json: output_schema.type: must be \"string\" because "
        + "boundary.structured_output is false (the model answers in plain text)");
  }

  @Test
  void contractIdInTheWrongShape_isRefusedWithAReadableMessage() {
    fixture.edit("contracts/PRC-EXECUTE-001.json", c -> c.put("contract_id", "prc-execute-1"));

    assertEquals(List.of("contracts/PRC-EXECUTE-001.json: contract_id: must look like PRC-NAME-001 "
        + "(upper-case words and a 3-digit number)"), problems());
  }

  @Test
  void contractNamingAnUnknownPromptPack_isRefusedListingKnownPacks() {
    fixture.edit("contracts/PRC-EXECUTE-001.json", c -> c.put("prompt_pack_id", "PRM-NOPE-001"));

    assertEquals(List.of("contracts/PRC-EXECUTE-001.json: prompt_pack_id: prompt pack PRM-NOPE-001 not found in prompts/ "
        + "(known: PRM-CLASSIFY-001, PRM-DEGRADED-001, PRM-EXECUTE-001, PRM-SYNTHESIZE-001)"), problems());
  }

  @Test
  void duplicateContractIdsInTwoFiles_areRefusedNamingBothFiles() {
    fixture.copy("contracts/PRC-CLASSIFY-001.json", "contracts/classify-copy.json", c -> c.put("version", "1.0.1"));

    assertEquals(List.of("contracts/classify-copy.json: contract_id: duplicate contract id PRC-CLASSIFY-001: also defined in "
        + "contracts/PRC-CLASSIFY-001.json (ids must be unique across files)"), problems());
  }

  @Test
  void fileThatIsNotJson_isRefusedWithItsLine() {
    fixture.writeText("contracts/PRC-CLASSIFY-001.json", "{\n  \"contract_id\": \"PRC-CLASSIFY-001\",\n  oops\n}");

    List<String> problems = problems();
    assertTrue(problems.stream().anyMatch(p -> p.startsWith("contracts/PRC-CLASSIFY-001.json: not valid JSON: ")
        && p.contains("line 3")), problems.toString());
  }

  @Test
  void keyWrittenTwice_isRefused() {
    fixture.writeText("attention/ATT-RESIDENT-001.json",
        fixture.read("attention/ATT-RESIDENT-001.json").toString().replaceFirst("\\{", "{\"version\": \"9.9.9\","));

    List<String> problems = problems();
    assertTrue(problems.stream().anyMatch(p -> p.startsWith("attention/ATT-RESIDENT-001.json: not valid JSON: Duplicate field 'version'")),
        problems.toString());
  }

  @Test
  void promptPackUsingAnUndeclaredVariable_isRefused() {
    fixture.edit("prompts/PRM-DEGRADED-001.json", p -> p.put("user", "{{user_input}} {{mood}}"));

    assertEquals(List.of("prompts/PRM-DEGRADED-001.json: user: {{mood}} is not declared in variables "
        + "(declared: [user_input, agent_class]; built in: [agent_system_prompt, input_json])"), problems());
  }

  @Test
  void promptPackWithMalformedPlaceholder_isRefused() {
    fixture.edit("prompts/PRM-DEGRADED-001.json", p -> p.put("user", "{{user_input}} {{user-input}}"));

    assertProblem(problems(), "prompts/PRM-DEGRADED-001.json: user: malformed placeholder at offset 15: '{{user-input}}' "
        + "(write {{name}} with lower-case letters, digits and _)");
  }

  @Test
  void promptPackDeclaringAnUnusedOrUnknownVariable_isRefused() {
    fixture.edit("prompts/PRM-DEGRADED-001.json", p -> ((ArrayNode) p.get("variables")).add("mood").add("input_json"));

    List<String> problems = problems();
    assertProblem(problems, "prompts/PRM-DEGRADED-001.json: variables[2]: 'mood' is declared but neither template uses it");
    assertProblem(problems, "prompts/PRM-DEGRADED-001.json: variables[3]: 'input_json' is built in; remove it from variables");
    assertProblem(problems, "prompts/PRM-DEGRADED-001.json: variables[2]: 'mood' is not a property of the input_schema of "
        + "contract PRC-DEGRADED-001 (properties: user_input, agent_class), so it would always render empty");
  }

  @Test
  void structuredPackWithoutTheInputBlock_isRefused() {
    fixture.edit("prompts/PRM-CLASSIFY-001.json", p -> p.put("user", "Classify this: {{input_json}}"));

    assertEquals(List.of("prompts/PRM-CLASSIFY-001.json: user: contract PRC-CLASSIFY-001 has structured output, so the user "
        + "template must carry the input as <input>\\n{{input_json}}\\n</input> (the offline provider reads it there)"), problems());
  }

  @Test
  void agentConfigWithBadBudgetAndMissingField_isRefusedNamingEachField() {
    fixture.edit("agents/admin.json", a -> {
      ((ObjectNode) a.get("budget")).put("turn_limit", 0);
      a.remove("system_prompt");
    });

    List<String> problems = problems();
    assertProblem(problems, "agents/admin.json: budget.turn_limit: must have a minimum value of 1");
    assertProblem(problems, "agents/admin.json: system_prompt: required property 'system_prompt' not found");
  }

  @Test
  void agentConfigWithToolParametersThatAreNotASchema_isRefused() {
    fixture.edit("agents/admin.json", a ->
        ((ObjectNode) a.at("/tools/2/parameters/properties/max_entries")).put("minimum", "one"));

    assertProblem(problems(), "agents/admin.json: tools[2].parameters.properties.max_entries.minimum: string found, number expected");
  }

  @Test
  void agentConfigWithDuplicateTool_isRefused() {
    fixture.edit("agents/resident.json", a -> ((ArrayNode) a.get("tools")).add(a.get("tools").get(0).deepCopy()));

    assertEquals(List.of("agents/resident.json: tools[2].tool_id: duplicate tool 'read_file' (also tools[0])"), problems());
  }

  @Test
  void agentPermissionGlobLeavingThePlaneRoot_isRefused() {
    fixture.edit("agents/resident.json", a -> ((ArrayNode) a.at("/permissions/read")).add("../etc/**").add("/etc/passwd"));

    List<String> problems = problems();
    assertEquals(2, problems.size(), problems.toString());
    assertEquals(List.of(
        "agents/resident.json: permissions.read[2]: must be a glob relative to the plane root: no leading /, no drive letter, "
            + "no backslash, no .. segment",
        "agents/resident.json: permissions.read[3]: must be a glob relative to the plane root: no leading /, no drive letter, "
            + "no backslash, no .. segment"), problems);
  }

  @Test
  void agentPermissionGlobWithBadSyntax_isRefused() {
    fixture.edit("agents/resident.json", a -> ((ArrayNode) a.at("/permissions/forbidden")).add("HO2/{a,b"));

    List<String> problems = problems();
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("agents/resident.json: permissions.forbidden[6]: invalid glob 'HO2/{a,b': "),
        problems.toString());
  }

  @Test
  void agentLedgerScopeOtherThanSessionOrAll_isRefusedAtLoad() {
    fixture.edit("agents/resident.json", a -> ((ObjectNode) a.get("permissions")).put("ledger_scope", "everything"));

    assertEquals(List.of("agents/resident.json: permissions.ledger_scope: does not have a value in the enumeration "
        + "[\"session\", \"all\"]"), problems());
  }

  @Test
  void agentWithoutLedgerScope_readsOnlyItsOwnSession() {
    fixture.edit("agents/admin.json", a -> ((ObjectNode) a.get("permissions")).remove("ledger_scope"));

    assertEquals(LedgerScope.SESSION, fixture.load().agent("ADMIN").permissions().ledgerScope());
  }

  @Test
  void agentLedgerScopeAll_isLoaded() {
    fixture.edit("agents/resident.json", a -> ((ObjectNode) a.get("permissions")).put("ledger_scope", "all"));

    assertEquals(LedgerScope.ALL, fixture.load().agent("RESIDENT").permissions().ledgerScope());
  }

  @Test
  void agentWhoseWorkOrderBudgetExceedsItsSession_isRefused() {
    fixture.edit("agents/resident.json", a -> ((ObjectNode) a.get("budget")).put("wo_token_budget", 1_000_000));

    assertEquals(List.of("agents/resident.json: budget.wo_token_budget: 1000000 exceeds budget.session_token_limit 60000: "
        + "a work order cannot spend more than its session"), problems());
  }

  @Test
  void agentNamingAnUnknownOrForeignAttentionTemplate_isRefused() {
    fixture.edit("agents/admin.json", a -> ((ObjectNode) a.get("attention")).put("template_id", "ATT-MISSING-001"));
    fixture.edit("agents/resident.json", a -> ((ObjectNode) a.get("attention")).put("template_id", "ATT-ADMIN-001"));

    List<String> problems = problems();
    assertProblem(problems, "agents/admin.json: attention.template_id: attention template ATT-MISSING-001 not found in "
        + "attention/ (known: ATT-ADMIN-001, ATT-RESIDENT-001)");
    assertProblem(problems, "agents/resident.json: attention.template_id: ATT-ADMIN-001 applies to agent classes [ADMIN], "
        + "not RESIDENT (see attention/ATT-ADMIN-001.json applies_to)");
  }

  @Test
  void duplicateAgentClass_isRefusedNamingBothFiles() {
    fixture.copy("agents/admin.json", "agents/second-admin.json", a -> a.put("agent_id", "admin-002"));

    assertEquals(List.of("agents/second-admin.json: agent_class: duplicate agent class id ADMIN: also defined in agents/admin.json "
        + "(ids must be unique across files)"), problems());
  }

  @Test
  void attentionTemplateWithBadStageConfig_isRefusedNamingTheStageField() {
    fixture.edit("attention/ATT-ADMIN-001.json", t -> {
      ObjectNode query = (ObjectNode) t.at("/pipeline/1/config");
      query.put("max_entries", 500);
      query.put("recency", "forever");
    });

    List<String> problems = problems();
    assertProblem(problems, "attention/ATT-ADMIN-001.json: pipeline[1].config.max_entries: must have a maximum value of 100");
    assertTrue(problems.stream().anyMatch(p -> p.startsWith("attention/ATT-ADMIN-001.json: pipeline[1].config.recency: "
        + "does not have a value in the enumeration")), problems.toString());
  }

  @Test
  void attentionTemplateQueryingAnUnselectedTier_isRefused() {
    fixture.edit("attention/ATT-RESIDENT-001.json", t -> ((ObjectNode) t.at("/pipeline/2/config")).put("tier", "ho3"));

    assertEquals(List.of("attention/ATT-RESIDENT-001.json: pipeline[2].config.tier: 'ho3' is not among the tiers selected "
        + "by select_tiers [hot, ho2, ho1]"), problems());
  }

  @Test
  void problemsOfSeveralFiles_areAllReportedOnePerLine() {
    fixture.edit("contracts/PRC-CLASSIFY-001.json", c -> ((ObjectNode) c.get("boundary")).put("max_tokens", 0));
    fixture.edit("agents/resident.json", a -> ((ObjectNode) a.get("quality_gate")).put("max_retries", -1));
    fixture.edit("attention/ATT-ADMIN-001.json", t -> ((ObjectNode) t.get("fallback")).put("on_empty", "panic"));

    CatalogException e = assertThrows(CatalogException.class, fixture::load);

    assertEquals(3, e.problems().size(), e.getMessage());
    String[] lines = e.getMessage().split("\n");
    assertEquals(4, lines.length, e.getMessage());
    assertTrue(lines[0].contains("3 problems"), lines[0]);
    assertEquals("contracts/PRC-CLASSIFY-001.json: boundary.max_tokens: must have a minimum value of 1", lines[1]);
    assertEquals("agents/resident.json: quality_gate.max_retries: must have a minimum value of 0", lines[2]);
    assertTrue(lines[3].startsWith("attention/ATT-ADMIN-001.json: fallback.on_empty: "), lines[3]);
  }

  @Test
  void emptyDirectory_isRefused() {
    fixture.delete("attention/ATT-ADMIN-001.json").delete("attention/ATT-RESIDENT-001.json");

    List<String> problems = problems();
    assertProblem(problems, "attention/: no attention template files (*.json) found");
  }

  @Test
  void nonJsonFiles_areIgnored() {
    fixture.writeText("contracts/README.md", "# notes\n");

    assertEquals(4, fixture.load().contracts().size());
  }

  // Issue 11 item 8: the turn deadline is validated at start-up like every other budget field.
  @Test
  void agentWithZeroOrHugeTurnTimeout_isRefusedNamingFileAndField() {
    fixture.edit("agents/admin.json", a -> ((ObjectNode) a.get("budget")).put("turn_timeout_seconds", 0));
    assertEquals(List.of("agents/admin.json: budget.turn_timeout_seconds: must have a minimum value of 1"), problems());
    fixture.edit("agents/admin.json", a -> ((ObjectNode) a.get("budget")).put("turn_timeout_seconds", 100_000));
    assertEquals(List.of("agents/admin.json: budget.turn_timeout_seconds: must have a maximum value of 86400"),
        problems());
  }

  @Test
  void agentWithoutTurnTimeout_getsTheDefaultDeadline_andTheShippedAgentsSayFiveMinutes() {
    assertEquals(300, fixture.load().agent("ADMIN").budget().turnTimeoutSeconds());
    fixture.edit("agents/admin.json", a -> ((ObjectNode) a.get("budget")).remove("turn_timeout_seconds"));
    assertEquals(AgentBudget.DEFAULT_TURN_TIMEOUT_SECONDS, fixture.load().agent("ADMIN").budget().turnTimeoutSeconds());
  }
}
