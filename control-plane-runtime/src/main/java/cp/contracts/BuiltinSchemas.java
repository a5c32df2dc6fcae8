package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The schemas the catalog validates its files with. They belong to the code that reads those
 * files, so they always come from the product's own classpath, never from an override directory.
 */
record BuiltinSchemas(Map<ArtifactKind, JsonNode> byKind, List<Loaded<String>> files) {
  static final String CONTRACT = "schemas/prompt_contract.schema.json";
  static final String PROMPT_PACK = "schemas/prompt_pack.schema.json";
  static final String AGENT = "schemas/agent_config.schema.json";
  static final String ATTENTION_TEMPLATE = "schemas/attention_template.schema.json";

  /** Our schema ids read {@code urn:cp:schema:<name>:<version>}. */
  private static final Pattern ID = Pattern.compile("urn:cp:schema:([a-z_]+):([0-9][0-9A-Za-z.-]*)");

  JsonNode schema(ArtifactKind kind) {
    return byKind.get(kind);
  }

  static BuiltinSchemas load(SchemaValidator validator) {
    ResourceSource classpath = ResourceSource.classpath(BuiltinSchemas.class.getClassLoader());
    Map<ArtifactKind, String> names = Map.of(
        ArtifactKind.CONTRACT, CONTRACT,
        ArtifactKind.PROMPT_PACK, PROMPT_PACK,
        ArtifactKind.AGENT, AGENT,
        ArtifactKind.ATTENTION_TEMPLATE, ATTENTION_TEMPLATE);
    Map<ArtifactKind, JsonNode> byKind = new EnumMap<>(ArtifactKind.class);
    List<Loaded<String>> files = new ArrayList<>();
    for (ArtifactKind kind : List.of(ArtifactKind.CONTRACT, ArtifactKind.PROMPT_PACK, ArtifactKind.AGENT,
        ArtifactKind.ATTENTION_TEMPLATE)) {
      String name = names.get(kind);
      ResourceFile file = classpath.read(name).orElseThrow(() -> new IllegalStateException(
          "built-in schema " + name + " is missing from the classpath: the build is broken"));
      JsonNode schema = Json.parse(file.text());
      List<SchemaValidator.Violation> problems = validator.schemaProblems(schema);
      if (!problems.isEmpty()) {
        throw new IllegalStateException("built-in schema " + name + " is not a valid JSON Schema: " + problems);
      }
      Matcher id = ID.matcher(Json.text(schema, "$id", ""));
      if (!id.matches()) {
        throw new IllegalStateException("built-in schema " + name + " has no $id of the form urn:cp:schema:<name>:<version>");
      }
      byKind.put(kind, schema);
      files.add(new Loaded<>(id.group(1), file, id.group(2)));
    }
    return new BuiltinSchemas(Map.copyOf(byKind), List.copyOf(files));
  }
}
