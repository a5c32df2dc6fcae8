package cp.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * The one JSON configuration of the plane: a shared mapper, a canonical form and SHA-256.
 *
 * <p>Ledgers hash their entries and HO2 hashes work-order traces; both need a serialization
 * that does not depend on field insertion order, so the canonical form sorts object keys
 * recursively and writes no whitespace. The mapper tolerates unknown fields because records
 * live in ledgers and workflow histories for years while the code that reads them changes.
 */
public final class Json {
  /** Thread-safe once configured; shared by every component. */
  public static final ObjectMapper MAPPER = newMapper();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** A mapper configured like {@link #MAPPER}, for callers that must own one (Temporal's converter). */
  public static ObjectMapper newMapper() {
    return JsonMapper.builder()
        .addModule(new Jdk8Module())
        .addModule(new JavaTimeModule())
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
        .build();
  }

  public static ObjectNode object() {
    return NODES.objectNode();
  }

  public static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** Converts any value (record, map, node) to a tree. */
  public static JsonNode tree(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof JsonNode node) {
      return node;
    }
    return MAPPER.valueToTree(value);
  }

  public static <T> T convert(Object value, Class<T> type) {
    return MAPPER.convertValue(value, type);
  }

  /** A parser's description of its source inside a message ("[Source: REDACTED (…); line: 1, column: 11]"). */
  private static final java.util.regex.Pattern SOURCE_IN_MESSAGE =
      java.util.regex.Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)\\]");

  /**
   * What is wrong with JSON or YAML text, on one line: the parser's own words (SnakeYAML's lines
   * that quote the text and point at it left out, Jackson's description of its source too) and
   * where, "(line L, column C)".
   */
  public static String syntaxProblem(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    message = SOURCE_IN_MESSAGE.matcher(message).replaceAll("line $1, column $2");
    String joined = message.lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
        .reduce((a, b) -> a + "; " + b).orElse("");
    String words = joined.isEmpty() ? message.strip().replace('\n', ' ') : joined;
    com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
    return words + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")");
  }

  /** Parses JSON text; the exception message names what was being parsed. */
  public static JsonNode parse(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not valid JSON: " + e.getOriginalMessage(), e);
    }
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static String pretty(Object value) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Canonical JSON: object keys sorted recursively, no whitespace. Stable across runs. */
  public static String canonical(Object value) {
    return write(sorted(tree(value)));
  }

  /** A deep copy of {@code node} with every object's keys in sorted order. */
  public static JsonNode sorted(JsonNode node) {
    if (node == null) {
      return NODES.nullNode();
    }
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      Collections.sort(names);
      ObjectNode out = NODES.objectNode();
      for (String name : names) {
        out.set(name, sorted(node.get(name)));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = NODES.arrayNode();
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        out.add(sorted(it.next()));
      }
      return out;
    }
    return node;
  }

  /** Lowercase hex SHA-256 of the UTF-8 bytes of {@code text}. */
  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }

  /** Reads a string field, or {@code fallback} when absent or not textual. */
  public static String text(JsonNode node, String field, String fallback) {
    if (node == null) {
      return fallback;
    }
    JsonNode v = node.get(field);
    return v != null && v.isTextual() ? v.asText() : fallback;
  }
}
