package cp.agents;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import cp.contracts.SchemaValidator;
import cp.model.RootCause;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one definition file (YAML or JSON) into an {@link AgentDefinition}, checking it against
 * {@code agent_definition.schema.json}: every violation becomes a {@link DefinitionProblem}, an
 * unknown key says which keys are known where it stands. Thread-safe.
 */
final class DefinitionReader {
  static final String SCHEMA_RESOURCE = "/cp/agents/agent_definition.schema.json";
  static final String APPROVAL_TIMEOUT = "approval_timeout_seconds";
  /** The largest definition file read: far above any real agent, far below what makes a YAML parser slow. */
  static final int MAX_FILE_BYTES = 1 << 20;

  /** A key written twice is almost always a mistake that would silently win. */
  private static final ObjectMapper YAML = YAMLMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final ObjectMapper BIND = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private final SchemaValidator validator;
  private final JsonNode schema;

  DefinitionReader(SchemaValidator validator) {
    this.validator = validator;
    this.schema = loadSchema();
  }

  /** Whether a file name is a definition: {@code *.yaml}, {@code *.yml} or {@code *.json}. */
  static boolean isDefinition(String fileName) {
    String n = fileName.toLowerCase(Locale.ROOT);
    return !n.startsWith(".") && (n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json"));
  }

  /**
   * The definition in {@code bytes}, with every problem added to {@code problems}: empty when the
   * file cannot be read as a definition at all (not UTF-8, not YAML, not a mapping); else the
   * definition without the keys the schema refused, for the checks beyond the schema.
   */
  Optional<Read> read(String file, byte[] bytes, List<DefinitionProblem> problems) {
    if (bytes.length > MAX_FILE_BYTES) {
      // Refused before parsing: a YAML parser takes minutes over tens of megabytes.
      problems.add(new DefinitionProblem(file, "", "is " + bytes.length + " bytes; a definition may be at most "
          + MAX_FILE_BYTES + " bytes (put long instructions in fewer words, not in a bigger file)", false));
      return Optional.empty();
    }
    Optional<String> notUtf8 = DefinitionText.notUtf8(bytes);
    if (notUtf8.isPresent()) {
      problems.add(new DefinitionProblem(file, "", notUtf8.get(), false));
      return Optional.empty();
    }
    boolean json = file.toLowerCase(Locale.ROOT).endsWith(".json");
    JsonNode tree;
    try {
      if (!json) {
        int documents = yamlDocuments(bytes);
        if (documents > 1) {
          problems.add(new DefinitionProblem(file, "", "holds " + documents + " YAML documents (separated by ---);"
              + " a file defines one agent: put each in a file of its own", false));
          return Optional.empty();
        }
      }
      tree = (json ? JSON : YAML).readTree(bytes);
    } catch (JsonProcessingException e) {
      problems.add(new DefinitionProblem(file, "", "not valid " + (file.endsWith(".json") ? "JSON" : "YAML") + ": "
          + cp.model.Json.syntaxProblem(e), false));
      return Optional.empty();
    } catch (IOException e) {
      problems.add(new DefinitionProblem(file, "", "cannot be read: " + e.getMessage(), false));
      return Optional.empty();
    }
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      problems.add(new DefinitionProblem(file, "", "is empty: expected the keys of an agent definition", false));
      return Optional.empty();
    }
    if (!tree.isObject()) {
      problems.add(new DefinitionProblem(file, "", "must be a mapping of keys (agent_class, instructions, ...), not "
          + tree.getNodeType().name().toLowerCase(Locale.ROOT), false));
      return Optional.empty();
    }
    ObjectNode root = (ObjectNode) tree;
    if (!moveApprovalTimeout(file, root, problems)) {
      return Optional.empty();
    }
    Set<String> refused = new LinkedHashSet<>();
    List<SchemaValidator.Violation> violations = validator.violations(schema, root);
    for (SchemaValidator.Violation v : violations) {
      DefinitionProblem p = problem(file, v);
      problems.add(p);
      refused.add(topKey(p.key()));
    }
    // The keys the schema refused are left out, so the checks beyond the schema still run on the
    // rest: one run shows every problem of the file, not the schema's first.
    refused.stream().filter(k -> !k.isEmpty()).forEach(root::remove);
    try {
      return Optional.of(new Read(BIND.treeToValue(root, AgentDefinition.class), refused, violations.isEmpty()));
    } catch (IOException | RuntimeException e) {
      if (violations.isEmpty()) {
        problems.add(new DefinitionProblem(file, "", "cannot be read as an agent definition: "
            + RootCause.innermostMessage(e), false));
      }
      return Optional.empty();
    }
  }

  /**
   * A file as read: its definition, without the top-level keys the schema refused.
   *
   * @param refusedKeys the top-level keys the schema refused ({@code ""} for the file as a whole)
   * @param schemaValid whether the schema refused nothing: only then may the definition run
   */
  record Read(AgentDefinition definition, Set<String> refusedKeys, boolean schemaValid) {
    /**
     * Top-level keys whose checks follow from another key's value: a problem the later checks find
     * there is a consequence of the refused key (a grant of a server left out), not news.
     */
    private static final Map<String, List<String>> DEPENDENT = Map.of(
        "tools", List.of("approval", "tool_timeout_seconds", "mcp_servers"),
        "mcp_servers", List.of("tools", "approval", "tool_timeout_seconds"),
        "instructions", List.of("instructions_file"),
        "instructions_file", List.of("instructions"),
        "budget", List.of("approval_timeout_seconds"));

    Read {
      refusedKeys = Set.copyOf(refusedKeys);
    }

    /** Whether a later check's problem at {@code key} follows from a key the schema refused (so is not shown). */
    boolean hides(String key) {
      String top = topKey(key);
      return refusedKeys.contains(top) || refusedKeys.stream().anyMatch(r -> DEPENDENT.getOrDefault(r, List.of())
          .contains(top));
    }
  }

  /** The top-level key of a dotted problem key: {@code budget} of {@code budget.turn_limit}, {@code tools} of {@code tools[0]}. */
  static String topKey(String key) {
    int end = key.length();
    for (int i = 0; i < key.length(); i++) {
      if (key.charAt(i) == '.' || key.charAt(i) == '[') {
        end = i;
        break;
      }
    }
    return key.substring(0, end);
  }


  /** How many YAML documents {@code bytes} holds (the mapper reads only the first). */
  private static int yamlDocuments(byte[] bytes) throws IOException {
    int n = 0;
    try (com.fasterxml.jackson.databind.MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class)
        .readValues(bytes)) {
      while (docs.hasNextValue()) {
        docs.nextValue();
        n++;
      }
    }
    return n;
  }

  /** {@code approval.approval_timeout_seconds} is accepted as the top-level key; both at once is an error. */
  private static boolean moveApprovalTimeout(String file, ObjectNode root, List<DefinitionProblem> problems) {
    JsonNode approval = root.get("approval");
    if (approval == null || !approval.isObject() || !approval.has(APPROVAL_TIMEOUT)) {
      return true;
    }
    if (root.has(APPROVAL_TIMEOUT)) {
      problems.add(new DefinitionProblem(file, "approval." + APPROVAL_TIMEOUT, "given twice (also at the top"
          + " level); keep one", false));
      return false;
    }
    root.set(APPROVAL_TIMEOUT, ((ObjectNode) approval).remove(APPROVAL_TIMEOUT));
    return true;
  }

  private DefinitionProblem problem(String file, SchemaValidator.Violation v) {
    String key = "$".equals(v.path()) ? "" : v.path();
    if ("additionalProperties".equals(v.keyword())) {
      List<String> known = knownKeys(parentOf(key));
      return new DefinitionProblem(file, key, "unknown key" + (known.isEmpty() ? "" : " (known here: "
          + String.join(", ", known) + ")"), false);
    }
    if ("required".equals(v.keyword())) {
      return new DefinitionProblem(file, key, "is required", false);
    }
    return new DefinitionProblem(file, key, v.message(), false);
  }

  private static String parentOf(String key) {
    int dot = key.lastIndexOf('.');
    return dot < 0 ? "" : key.substring(0, dot);
  }

  /** The keys the schema allows at a dotted path ({@code model}, {@code mcp_servers.x}). */
  private List<String> knownKeys(String path) {
    JsonNode at = schema;
    if (!path.isEmpty()) {
      for (String segment : path.replaceAll("\\[\\d+]", ".[]").split("\\.")) {
        at = resolve(at);
        if (segment.equals("[]")) {
          at = at.path("items");
        } else if (at.path("properties").has(segment)) {
          at = at.path("properties").path(segment);
        } else {
          at = at.path("additionalProperties");
        }
      }
    }
    List<String> names = new ArrayList<>();
    resolve(at).path("properties").fieldNames().forEachRemaining(names::add);
    return names;
  }

  private JsonNode resolve(JsonNode node) {
    JsonNode ref = node.get("$ref");
    return ref == null ? node : schema.at(ref.asText().substring(1));
  }

  private static JsonNode loadSchema() {
    try (InputStream in = DefinitionReader.class.getResourceAsStream(SCHEMA_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(SCHEMA_RESOURCE + " is missing from the classpath");
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + SCHEMA_RESOURCE, e);
    }
  }
}
