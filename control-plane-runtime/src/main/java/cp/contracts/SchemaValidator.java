package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates JSON against JSON Schema draft 2020-12 and reports every violation, never just the first.
 *
 * <p>Compiled schemas are cached by content (JSON trees compare structurally, whatever their key
 * order), so the same contract schema is compiled once however many work orders use it, and a
 * lookup hashes the tree instead of serializing it to canonical text on every validation. Safe for concurrent use: the registry and
 * compiled schemas of networknt's validator are thread-safe once built, and each schema is
 * fully initialized before it enters the cache.
 */
public final class SchemaValidator {
  /** The draft every schema of the plane is written in. */
  public static final String META_SCHEMA_IRI = "https://json-schema.org/draft/2020-12/schema";

  /**
   * Bound on cached compiled schemas. Catalog schemas number in the tens; the bound only guards
   * against a caller that validates against ad-hoc schemas without end.
   */
  static final int MAX_CACHED_SCHEMAS = 1024;

  /**
   * A schema may replace a keyword's stock message, e.g. {@code "errorMessage": {"pattern": "must
   * look like PRC-NAME-001"}}, so a failed regular expression reads as advice, not as the regex.
   */
  public static final String ERROR_MESSAGE_KEYWORD = "errorMessage";

  private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
      b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().errorMessageKeyword(ERROR_MESSAGE_KEYWORD).build()));
  private final ConcurrentHashMap<JsonNode, Schema> cache = new ConcurrentHashMap<>();
  private final Schema metaSchema;

  public SchemaValidator() {
    // The draft 2020-12 meta-schema ships inside the validator jar: loading it needs no network.
    metaSchema = registry.getSchema(SchemaLocation.of(META_SCHEMA_IRI));
    metaSchema.initializeValidators();
  }

  /** One violation: where in the instance, which keyword, and the validator's message. */
  public record Violation(String pointer, String path, String keyword, String message) {
    public Violation {
      Objects.requireNonNull(pointer, "pointer");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(message, "message");
    }

    /** {@code "<json-pointer or $>: <message>"}. */
    @Override
    public String toString() {
      return pointer + ": " + message;
    }
  }

  /**
   * Every violation of {@code schema} by {@code instance}, as {@code "<json-pointer or $>: <message>"}.
   *
   * @throws IllegalArgumentException when the schema itself does not compile
   */
  public List<String> validate(JsonNode schema, JsonNode instance) {
    return violations(schema, instance).stream().map(Violation::toString).toList();
  }

  /** Like {@link #validate} but structured; {@link Violation#path()} is a dotted field path. */
  public List<Violation> violations(JsonNode schema, JsonNode instance) {
    return toViolations(compiled(schema).validate(instance == null ? NullNode.getInstance() : instance));
  }

  /**
   * Why {@code schema} is not a usable JSON Schema: meta-schema violations, or a compile error
   * (an invalid regular expression, say). Empty when it is usable.
   */
  public List<Violation> schemaProblems(JsonNode schema) {
    if (schema == null) {
      return List.of(new Violation("$", "$", "type", "schema is missing"));
    }
    List<Violation> problems = toViolations(metaSchema.validate(schema));
    if (!problems.isEmpty()) {
      return problems;
    }
    try {
      compiled(schema);
      return List.of();
    } catch (IllegalArgumentException e) {
      return List.of(new Violation("$", "$", "compile", e.getMessage()));
    }
  }

  private Schema compiled(JsonNode schema) {
    Objects.requireNonNull(schema, "schema");
    Schema cached = cache.get(schema);
    if (cached != null) {
      return cached;
    }
    Schema fresh = compile(schema);
    if (cache.size() >= MAX_CACHED_SCHEMAS) {
      cache.clear();
    }
    Schema raced = cache.putIfAbsent(schema.deepCopy(), fresh);
    return raced == null ? fresh : raced;
  }

  private Schema compile(JsonNode schema) {
    try {
      Schema s = registry.getSchema(schema.deepCopy());
      s.initializeValidators();
      return s;
    } catch (RuntimeException e) {
      String cause = e.getCause() != null && e.getCause().getMessage() != null
          ? e.getCause().getMessage() : e.getMessage();
      throw new IllegalArgumentException("schema does not compile: " + firstLine(cause), e);
    }
  }

  private static List<Violation> toViolations(List<Error> errors) {
    Set<Violation> out = new LinkedHashSet<>();
    for (Error e : errors) {
      NodePath at = e.getInstanceLocation();
      out.add(new Violation(pointer(at), dottedPath(at, e.getProperty(), e.getKeyword()),
          e.getKeyword() == null ? "" : e.getKeyword(), e.getMessage()));
    }
    return List.copyOf(new ArrayList<>(out));
  }

  /** RFC 6901 pointer of an instance location, or {@code $} for the document itself. */
  static String pointer(NodePath at) {
    if (at == null || at.getNameCount() == 0) {
      return "$";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < at.getNameCount(); i++) {
      sb.append('/').append(String.valueOf(at.getElement(i)).replace("~", "~0").replace("/", "~1"));
    }
    return sb.toString();
  }

  /**
   * A readable field path ({@code boundary.max_tokens}, {@code tools[1].parameters}). For
   * keywords about a named property that is absent or not allowed (required,
   * additionalProperties), the property is part of the path, so the path names the field.
   */
  static String dottedPath(NodePath at, String property, String keyword) {
    StringBuilder sb = new StringBuilder();
    if (at != null) {
      for (int i = 0; i < at.getNameCount(); i++) {
        Object element = at.getElement(i);
        if (element instanceof Integer index) {
          sb.append('[').append(index).append(']');
        } else {
          if (sb.length() > 0) {
            sb.append('.');
          }
          sb.append(element);
        }
      }
    }
    if (property != null && namesProperty(keyword)) {
      if (sb.length() > 0) {
        sb.append('.');
      }
      sb.append(property);
    }
    return sb.length() == 0 ? "$" : sb.toString();
  }

  private static boolean namesProperty(String keyword) {
    return "required".equals(keyword) || "additionalProperties".equals(keyword)
        || "unevaluatedProperties".equals(keyword) || "dependentRequired".equals(keyword);
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unknown error";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
