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
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
      throw new SuiteFileException(name, "", "cannot be read: " + why(e), e);
    }
    return parse(name, isJson(file), bytes);
  }

  /** The suite in {@code bytes}, read as JSON or YAML; {@code name} is used in errors. */
  public static EvalSuite parse(String name, boolean json, byte[] bytes) {
    JsonNode tree;
    try {
      tree = (json ? JSON_READ : YAML_READ).readTree(bytes);
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      throw new SuiteFileException(name, "", "not valid " + (json ? "JSON" : "YAML") + ": "
          + oneLine(e.getOriginalMessage()) + (at == null ? "" : " (line " + at.getLineNr() + ", column "
          + at.getColumnNr() + ")"), e);
    } catch (IOException e) {
      throw new SuiteFileException(name, "", "cannot be read: " + e.getMessage(), e);
    }
    return new SuiteShape(name).bind(tree);
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
    Path target = file.toAbsolutePath();
    Path dir = target.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new SuiteFileException(name, "", "cannot be written: its directory " + dir + " does not exist");
    }
    if (Files.isDirectory(target)) {
      throw new SuiteFileException(name, "", "cannot be written: it is a directory");
    }
    Path temp = null;
    try {
      temp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
      Files.write(temp, bytes);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      temp = null;
    } catch (IOException e) {
      throw new SuiteFileException(name, "", "cannot be written (" + why(e) + "); nothing was written", e);
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // the write already failed and says so; a stray temp file is all that is left
        }
      }
    }
  }

  /** An I/O failure in words: the JDK's exceptions often carry only a path as their message. */
  private static String why(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? "an I/O error" : e.getMessage();
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

  /** A parser's message on one line: SnakeYAML's quote the text and point at it on lines of their own. */
  static String oneLine(String message) {
    if (message == null) {
      return "";
    }
    String joined = message.lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
        .reduce((a, b) -> a + "; " + b).orElse("");
    return joined.isEmpty() ? message.strip().replace('\n', ' ') : joined;
  }
}
