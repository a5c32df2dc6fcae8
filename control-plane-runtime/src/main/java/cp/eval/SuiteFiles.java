package cp.eval;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import cp.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads and writes suite files: JSON when the name ends in {@code .json}, YAML otherwise.
 *
 * <p>Reading checks the file's shape first ({@link SuiteShape}) so that a typo in a key the user
 * edits by hand ({@code expect.not_contain}) is an error naming the file and key, not an
 * expectation silently never checked. Writing goes to a temporary file in the same directory and
 * is moved over the target, so a failed write never leaves half a suite behind. Thread-safe.
 */
public final class SuiteFiles {
  /** A key written twice is almost always a mistake that would silently win. */
  private static final ObjectMapper YAML_READ = YAMLMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
  private static final ObjectMapper JSON_READ = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final ObjectMapper JSON_WRITE = Json.newMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper YAML_WRITE = YAMLMapper.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
      .disable(YAMLGenerator.Feature.SPLIT_LINES)
      .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
      .build();

  private SuiteFiles() {}

  /** Whether {@code file} is written as JSON (by its name) rather than YAML. */
  public static boolean isJson(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".json");
  }

  /**
   * The suite in {@code file}.
   *
   * @throws SuiteFileException naming the file and key when it cannot be read, is not valid JSON or
   *     YAML, has an unknown key, a value of the wrong type or a bad regular expression
   */
  public static EvalSuite read(Path file) {
    String name = file.toString();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new SuiteFileException(name, "", "no such file");
    } catch (IOException e) {
      throw new SuiteFileException(name, "", "cannot be read: " + FileWrites.why(e), e);
    }
    return parse(name, isJson(file), bytes);
  }

  /** The suite in {@code bytes}, read as JSON or YAML; {@code name} is used in errors. */
  public static EvalSuite parse(String name, boolean json, byte[] bytes) {
    JsonNode tree;
    try {
      tree = (json ? JSON_READ : YAML_READ).readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new SuiteFileException(name, "", "not valid " + (json ? "JSON" : "YAML") + ": "
          + cp.model.Json.syntaxProblem(e), e);
    } catch (IOException e) {
      throw new SuiteFileException(name, "", "cannot be read: " + e.getMessage(), e);
    }
    return new SuiteShape(name).bind(tree);
  }

  /**
   * Checks that a suite could be written to {@code file} now (before the freeze reads the ledgers).
   *
   * @throws SuiteFileException naming the file and why it cannot be written
   */
  public static void checkWritable(Path file) {
    FileWrites.checkWritable(file);
  }

  /** Writes {@code suite} to {@code file} (JSON for {@code .json}, YAML otherwise), replacing it whole. */
  public static void write(EvalSuite suite, Path file) {
    String name = file.toString();
    byte[] bytes;
    try {
      bytes = text(suite, isJson(file)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      throw new SuiteFileException(name, "", "cannot be written: " + e.getMessage(), e);
    }
    FileWrites.replace(file, bytes);
  }

  /** The suite as JSON or YAML text. */
  public static String text(EvalSuite suite, boolean json) {
    try {
      String text = (json ? JSON_WRITE : YAML_WRITE).writeValueAsString(suite);
      return text.endsWith("\n") ? text : text + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("suite cannot be serialized: " + e.getOriginalMessage(), e);
    }
  }

  /** A parser's message, its first line: SnakeYAML's go on to quote the text, and the location is said apart. */
  static String oneLine(String message) {
    return message == null ? "" : message.strip().lines().findFirst().orElse("").strip();
  }
}
