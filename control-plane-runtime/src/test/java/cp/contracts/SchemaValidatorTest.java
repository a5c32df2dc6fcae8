package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SchemaValidatorTest {
  private final SchemaValidator validator = new SchemaValidator();

  private static final JsonNode SCHEMA = Json.parse("""
      {"type": "object", "required": ["name", "size"], "additionalProperties": false,
       "properties": {
         "name": {"type": "string"},
         "size": {"type": "integer", "minimum": 1},
         "tags": {"type": "array", "items": {"type": "string"}},
         "a/b~c": {"type": "boolean"}}}
      """);

  @Test
  void everyViolationIsReported_notJustTheFirst() {
    JsonNode instance = Json.parse("{\"size\": 0, \"tags\": [\"ok\", 7], \"colour\": \"red\"}");

    List<String> violations = validator.validate(SCHEMA, instance);

    assertEquals(4, violations.size(), violations.toString());
    assertTrue(violations.contains("$: required property 'name' not found"), violations.toString());
    assertTrue(violations.contains("/size: must have a minimum value of 1"), violations.toString());
    assertTrue(violations.contains("/tags/1: integer found, string expected"), violations.toString());
    assertTrue(violations.stream().anyMatch(v -> v.startsWith("$: property 'colour' is not defined")), violations.toString());
  }

  @Test
  void pointersEscapeSlashAndTilde() {
    List<String> violations = validator.validate(SCHEMA, Json.parse("{\"name\": \"x\", \"size\": 1, \"a/b~c\": 3}"));

    assertEquals(List.of("/a~1b~0c: integer found, boolean expected"), violations);
  }

  @Test
  void structuredViolations_carryADottedPathNamingTheField() {
    JsonNode schema = Json.parse("""
        {"type": "object", "properties": {"items": {"type": "array",
          "items": {"type": "object", "required": ["id"]}}}}
        """);

    List<SchemaValidator.Violation> violations = validator.violations(schema, Json.parse("{\"items\": [{\"id\": 1}, {}]}"));

    assertEquals(1, violations.size(), violations.toString());
    assertEquals("/items/1", violations.get(0).pointer());
    assertEquals("items[1].id", violations.get(0).path());
    assertEquals("required", violations.get(0).keyword());
  }

  @Test
  void validInstance_hasNoViolations() {
    assertEquals(List.of(), validator.validate(SCHEMA, Json.parse("{\"name\": \"n\", \"size\": 3, \"tags\": []}")));
  }

  @Test
  void nullInstance_isValidatedAsJsonNull() {
    assertEquals(List.of("$: null found, object expected"), validator.validate(SCHEMA, null));
  }

  @Test
  void schemaThatDoesNotCompile_isAnIllegalArgument() {
    JsonNode broken = Json.parse("{\"type\": \"string\", \"pattern\": \"([a-z\"}");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> validator.validate(broken, Json.tree("abc")));
    assertTrue(e.getMessage().startsWith("schema does not compile: "), e.getMessage());
  }

  @Test
  void schemaProblems_reportsMetaSchemaViolationsWithTheirPath() {
    JsonNode notASchema = Json.parse("{\"type\": \"objekt\", \"required\": \"name\"}");

    List<SchemaValidator.Violation> problems = validator.schemaProblems(notASchema);

    assertTrue(problems.stream().anyMatch(p -> p.path().equals("type")), problems.toString());
    assertTrue(problems.stream().anyMatch(p -> p.path().equals("required") && p.message().equals("string found, array expected")),
        problems.toString());
    assertEquals(List.of(), validator.schemaProblems(SCHEMA));
  }

  @Test
  void customErrorMessage_replacesTheStockMessage() {
    JsonNode schema = Json.parse("{\"type\": \"string\", \"pattern\": \"^PRC-\", \"errorMessage\": {\"pattern\": \"must start with PRC-\"}}");

    assertEquals(List.of("$: must start with PRC-"), validator.validate(schema, Json.tree("XYZ")));
  }

  @Test
  void sameSchemaFromManyThreads_validatesConsistently() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        JsonNode schemaCopy = SCHEMA.deepCopy();
        JsonNode instance = Json.parse("{\"name\": \"n\", \"size\": " + (i % 2) + "}");
        results.add(pool.submit(() -> validator.validate(schemaCopy, instance)));
      }
      for (int i = 0; i < results.size(); i++) {
        List<String> expected = i % 2 == 0 ? List.of("/size: must have a minimum value of 1") : List.of();
        assertEquals(expected, results.get(i).get(), "run " + i);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
