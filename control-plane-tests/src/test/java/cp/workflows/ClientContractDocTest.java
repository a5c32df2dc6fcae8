package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import cp.model.Refusal;
import cp.worker.WorkerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/client-contract.md cannot drift from the code: every fenced {@code json} block in it is
 * tagged {@code <!-- schema: name -->} and validates against that shipped schema; every schema has
 * an example; the refusal table lists exactly the codes of {@link Refusal.Code}; the names the
 * document gives (Updates, Queries, task queue, search attributes, refusal types) are the code's.
 */
class ClientContractDocTest {
  static final Path DOC = Path.of("..", "docs", "client-contract.md");
  static final Pattern BLOCK = Pattern.compile("```json\\n(.*?)\\n```", Pattern.DOTALL);
  static final Pattern TAG = Pattern.compile("<!-- schema: ([a-z_]+) -->\\s*$");

  record Example(String schema, String json, int line) {}

  static String doc() throws IOException {
    return Files.readString(DOC, StandardCharsets.UTF_8);
  }

  static List<Example> examples(String doc) {
    List<Example> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(doc);
    while (m.find()) {
      int line = (int) doc.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
      String before = doc.substring(0, m.start()).stripTrailing();
      String lastLine = before.substring(before.lastIndexOf('\n') + 1);
      Matcher tag = TAG.matcher(lastLine);
      out.add(new Example(tag.find() ? tag.group(1) : null, m.group(1), line));
    }
    return out;
  }

  @Test
  void everyJsonExampleIsTaggedAndValidatesAgainstItsSchema() throws IOException {
    List<Example> examples = examples(doc());
    assertFalse(examples.isEmpty(), "no ```json blocks in " + DOC);
    for (Example e : examples) {
      assertTrue(e.schema() != null, DOC + ":" + e.line() + ": a ```json block without <!-- schema: name --> before it");
      assertTrue(ClientContractSchemaTest.SCHEMAS.contains(e.schema()), DOC + ":" + e.line() + ": unknown schema '"
          + e.schema() + "' (known: " + ClientContractSchemaTest.SCHEMAS + ")");
      JsonNode instance = Json.parse(e.json());
      List<String> violations = ClientContractSchemaTest.VALIDATOR.validate(ClientContractSchemaTest.schema(e.schema()),
          instance);
      assertEquals(List.of(), violations, DOC + ":" + e.line() + ": the " + e.schema() + " example does not validate");
    }
  }

  @Test
  void everySchemaHasAnExampleAndIsNamedInTheDocument() throws IOException {
    String doc = doc();
    Set<String> exampled = examples(doc).stream().map(Example::schema).collect(Collectors.toSet());
    for (String name : ClientContractSchemaTest.SCHEMAS) {
      assertTrue(exampled.contains(name), "no example for schema " + name + " in " + DOC);
      assertTrue(doc.contains("`" + name + ".schema.json`"), name + ".schema.json is not listed in " + DOC);
    }
  }

  @Test
  void theRefusalTableListsExactlyTheCodesOfTheCode() throws IOException {
    Pattern row = Pattern.compile("^\\| `(turn_refused|start_refused|approval_refused|unknown_update)` \\| `([a-z_]+)`(?:, `[a-z_]+`)* \\|", Pattern.MULTILINE);
    Matcher m = row.matcher(doc());
    Set<String> documented = new TreeSet<>();
    while (m.find()) {
      documented.add(m.group(2));
    }
    assertEquals(Arrays.stream(Refusal.Code.values()).map(Refusal.Code::wire).collect(Collectors.toCollection(TreeSet::new)),
        documented);
  }

  @Test
  void theNamesTheDocumentGivesAreTheCodes() throws IOException {
    String doc = doc();
    for (String name : List.of(SessionWorkflow.TURN, SessionWorkflow.END, "state", "progress",
        Refusal.TURN_REFUSED, Refusal.START_REFUSED, WorkerSettings.DEFAULT_TASK_QUEUE,
        CpSearchAttributes.SESSION_ID.getName(), CpSearchAttributes.AGENT_CLASS.getName(),
        CpSearchAttributes.TURN.getName(), "SessionWorkflow", "TurnWorkflow", "binary/encrypted",
        cp.worker.codec.AesGcmPayloadCodec.CIPHER_NAME, "encryption-key-id", "encryption-cipher", "CP_PAYLOAD_KEY",
        "CP_TASK_QUEUE", cp.model.WorkOrderIds.SESSION_ID.pattern())) {
      assertTrue(doc.contains(name), DOC + " does not name '" + name + "'");
    }
    assertEquals("SES-1a2b3c4d/turn-0001", cp.model.WorkOrderIds.turnWorkflow("SES-1a2b3c4d", 1));
    assertEquals(List.of(), markersNotInTheDocument(doc), "the contract must say which version markers it describes");
    assertTrue(doc.contains("`SES-1a2b3c4d/turn-0001`"));
  }

  /**
   * The change ids of every {@code Workflow.getVersion} in the session and turn workflows that the
   * document's version table does not name: a new marker means a new behaviour a client may see.
   */
  static List<String> markersNotInTheDocument(String doc) throws IOException {
    List<String> missing = new ArrayList<>();
    Path dir = Path.of("..", "control-plane-runtime", "src", "main", "java", "cp", "workflows");
    StringBuilder all = new StringBuilder();
    List<Path> files;
    try (var list = Files.list(dir)) {
      files = list.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    for (Path f : files) {
      all.append(Files.readString(f, StandardCharsets.UTF_8)).append('\n');
    }
    for (Path f : files) {
      Matcher calls = Pattern.compile("getVersion\\(\\s*(?:\\w+\\.)?(\\w+),").matcher(Files.readString(f,
          StandardCharsets.UTF_8));
      while (calls.find()) {
        Matcher value = Pattern.compile("static final String " + calls.group(1) + " = \"([^\"]+)\"").matcher(all);
        assertTrue(value.find(), f.getFileName() + ": no constant " + calls.group(1));
        if (!doc.contains("`" + value.group(1) + "`")) {
          missing.add(f.getFileName() + ": " + value.group(1));
        }
      }
    }
    return missing;
  }

}
