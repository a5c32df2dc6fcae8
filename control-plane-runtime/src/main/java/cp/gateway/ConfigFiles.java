package cp.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads the JSON or YAML file a variable names ({@code CP_PRICES_FILE}, {@code CP_TENANTS_FILE}):
 * YAML when its name ends in {@code .yaml} or {@code .yml}, JSON otherwise. Every problem is one
 * line that starts with {@code VARIABLE=path} and says what is wrong: no such file, a directory, not
 * UTF-8, or where the text stops being JSON or YAML (without the parser's internals).
 */
final class ConfigFiles {
  private ConfigFiles() {}

  /** The file's tree (null for an empty file). */
  static JsonNode read(String variable, Path file) {
    String where = variable + "=" + file;
    if (!Files.exists(file)) {
      throw new ProviderConfigException(variable, where + ": no such file");
    }
    if (Files.isDirectory(file)) {
      throw new ProviderConfigException(variable, where + ": is a directory, not a file");
    }
    String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
    ObjectMapper mapper = yaml ? new YAMLMapper() : new ObjectMapper();
    String text;
    try {
      text = Files.readString(file);
    } catch (MalformedInputException e) {
      throw new ProviderConfigException(variable, where + ": is not UTF-8 text");
    } catch (IOException e) {
      throw new ProviderConfigException(variable, where + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    try {
      return mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ProviderConfigException(variable, where + " is not valid " + (yaml ? "YAML" : "JSON") + ": "
          + cp.model.Json.syntaxProblem(e));
    }
  }
}
