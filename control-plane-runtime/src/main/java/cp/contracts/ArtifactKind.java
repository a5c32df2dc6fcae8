package cp.contracts;

import com.fasterxml.jackson.annotation.JsonValue;

/** The kinds of file the catalog installs, each with its resource directory. */
public enum ArtifactKind {
  CONTRACT("contract", "contracts", "contract_id"),
  PROMPT_PACK("prompt pack", "prompts", "prompt_pack_id"),
  AGENT("agent class", "agents", "agent_class"),
  ATTENTION_TEMPLATE("attention template", "attention", "template_id"),
  SCHEMA("schema", "schemas", "$id"),
  /**
   * An agent definition of {@code CP_AGENTS_DIR} (or registered in code): its file is the path it
   * was read from, not a name in the catalog's source.
   */
  AGENT_DEFINITION("agent definition", "definitions", "agent_class");

  private final String label;
  private final String directory;
  private final String idField;

  ArtifactKind(String label, String directory, String idField) {
    this.label = label;
    this.directory = directory;
    this.idField = idField;
  }

  /** In messages: {@code contract}, {@code prompt pack}, ... */
  public String label() {
    return label;
  }

  /** The resource directory, e.g. {@code contracts}. */
  public String directory() {
    return directory;
  }

  /** The JSON field that holds a file's id. */
  public String idField() {
    return idField;
  }

  /**
   * In JSON: {@code contract}, {@code prompt_pack}, {@code agent}, {@code attention_template},
   * {@code schema}, {@code agent_definition}.
   */
  @JsonValue
  public String wireName() {
    return this == AGENT ? "agent" : label.replace(' ', '_');
  }
}
