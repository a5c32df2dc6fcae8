package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 000's contract-loading and input/output validation tests, on the shipped contracts. */
class ContractLoaderTest {
  private final Catalog catalog = Catalog.loadDefault();
  private final ContractLoader loader = new ContractLoader(catalog);

  @Test
  void loadById_returnsTheClassifyContract() {
    PromptContract c = loader.load("PRC-CLASSIFY-001");

    assertEquals("PRC-CLASSIFY-001", c.contractId());
    assertEquals("PRM-CLASSIFY-001", c.promptPackId());
    assertEquals("ho1", c.tier());
    assertEquals("1.0.0", c.version());
  }

  @Test
  void loadedContract_passesThePromptContractSchema() {
    JsonNode schema = Json.parse(ResourceSource.classpath().read("schemas/prompt_contract.schema.json").orElseThrow().text());
    SchemaValidator validator = new SchemaValidator();

    for (PromptContract c : catalog.contracts()) {
      assertEquals(List.of(), validator.validate(schema, Json.tree(c)), c.contractId());
    }
  }

  @Test
  void missingContract_throwsNotFoundListingTheKnownIds() {
    ContractNotFoundException e = assertThrows(ContractNotFoundException.class, () -> loader.load("PRC-NONEXISTENT-001"));

    assertEquals("PRC-NONEXISTENT-001", e.contractId());
    assertEquals("contract PRC-NONEXISTENT-001 not found in contracts/ (known: PRC-CLASSIFY-001, PRC-DEGRADED-001, "
        + "PRC-EXECUTE-001, PRC-SYNTHESIZE-001)", e.getMessage());
  }

  @Test
  void contractMissingRequiredFields_isRefusedNamingFileAndField(@TempDir Path dir) {
    CatalogFixture fixture = CatalogFixture.copyOfShipped(dir)
        .edit("contracts/PRC-EXECUTE-001.json", c -> {
          c.remove("prompt_pack_id");
          ((ObjectNode) c.get("boundary")).put("max_tokens", 0);
        });

    CatalogException e = assertThrows(CatalogException.class, fixture::load);

    assertTrue(e.problems().contains("contracts/PRC-EXECUTE-001.json: prompt_pack_id: required property 'prompt_pack_id' not found"),
        e.getMessage());
    assertTrue(e.problems().contains("contracts/PRC-EXECUTE-001.json: boundary.max_tokens: must have a minimum value of 1"),
        e.getMessage());
  }

  @Test
  void loadedContract_exposesItsBoundary() {
    ContractBoundary classify = loader.load("PRC-CLASSIFY-001").boundary();
    ContractBoundary synthesize = loader.load("PRC-SYNTHESIZE-001").boundary();

    assertEquals(500, classify.maxTokens());
    assertEquals(0.0, classify.temperature());
    assertTrue(classify.structuredOutput());
    assertEquals(4096, synthesize.maxTokens());
    assertEquals(0.3, synthesize.temperature());
  }

  @Test
  void validInput_hasNoViolations() {
    PromptContract synthesize = loader.load("PRC-SYNTHESIZE-001");
    JsonNode input = Json.parse("""
        {"user_input": "what is installed?",
         "prior_results": [{"speech_act": "question"}],
         "assembled_context": {"text": "...", "context_hash": "ab12", "fragment_count": 3, "context_ref": "LED-1"},
         "acceptance_criteria": {"must_include_response_text": true, "max_response_chars": 8000},
         "retry_feedback": ["response_text was empty"],
         "classification": {"speech_act": "question", "ambiguity": "low"}}
        """);

    assertEquals(List.of(), loader.validateInput(synthesize, input));
  }

  @Test
  void inputWithTwoProblems_reportsBothViolations() {
    PromptContract synthesize = loader.load("PRC-SYNTHESIZE-001");
    JsonNode input = Json.parse("{\"prior_results\": \"not an array\"}");

    List<String> violations = loader.validateInput(synthesize, input);

    assertEquals(2, violations.size(), violations.toString());
    assertTrue(violations.contains("$: required property 'user_input' not found"), violations.toString());
    assertTrue(violations.contains("/prior_results: string found, array expected"), violations.toString());
  }

  @Test
  void classifyInputWithoutUserInput_isInvalid() {
    List<String> violations = loader.validateInput(loader.load("PRC-CLASSIFY-001"), Json.object());

    assertEquals(List.of("$: required property 'user_input' not found"), violations);
  }

  @Test
  void missingInputContext_isReportedNotThrown() {
    List<String> violations = loader.validateInput(loader.load("PRC-CLASSIFY-001"), null);

    assertFalse(violations.isEmpty());
    assertTrue(violations.get(0).startsWith("$: "), violations.toString());
  }

  @Test
  void validClassifyOutput_hasNoViolations() {
    JsonNode output = Json.parse("""
        {"speech_act": "reentry_greeting", "ambiguity": "low", "intent": "resume", "needs_tools": false}
        """);

    assertEquals(List.of(), loader.validateOutput(loader.load("PRC-CLASSIFY-001"), output));
  }

  @Test
  void classifyOutputOutsideTheEnums_reportsEveryField() {
    JsonNode output = Json.parse("{\"speech_act\": \"rant\", \"ambiguity\": \"extreme\", \"needs_tools\": \"yes\"}");

    List<String> violations = loader.validateOutput(loader.load("PRC-CLASSIFY-001"), output);

    assertEquals(3, violations.size(), violations.toString());
    assertTrue(violations.stream().anyMatch(v -> v.startsWith("/speech_act: ")), violations.toString());
    assertTrue(violations.stream().anyMatch(v -> v.startsWith("/ambiguity: ")), violations.toString());
    assertTrue(violations.contains("/needs_tools: string found, boolean expected"), violations.toString());
  }

  @Test
  void synthesizeOutputWithEmptyResponseText_isInvalid() {
    PromptContract synthesize = loader.load("PRC-SYNTHESIZE-001");

    assertEquals(List.of(), loader.validateOutput(synthesize, Json.parse("{\"response_text\": \"Hi\", \"extra\": 1}")));
    assertEquals(List.of("/response_text: must be at least 1 characters long"),
        loader.validateOutput(synthesize, Json.parse("{\"response_text\": \"\"}")));
  }

  @Test
  void degradedContract_acceptsPlainTextAndRejectsObjects() {
    PromptContract degraded = loader.load("PRC-DEGRADED-001");

    assertFalse(degraded.structuredOutput());
    assertEquals(List.of(), loader.validateOutput(degraded, Json.tree("The supervisor is down; try again shortly.")));
    assertEquals(List.of("$: object found, string expected"), loader.validateOutput(degraded, Json.object()));
    assertEquals(List.of(), loader.validateInput(degraded, Json.parse("{\"user_input\": \"hi\", \"agent_class\": \"ADMIN\"}")));
  }

  @Test
  void contractSchemas_areCopiesThatCallersCannotChange() {
    PromptContract c = loader.load("PRC-CLASSIFY-001");

    ((ObjectNode) c.inputSchema()).put("type", "string");

    assertEquals("object", loader.load("PRC-CLASSIFY-001").inputSchema().get("type").asText());
  }
}
