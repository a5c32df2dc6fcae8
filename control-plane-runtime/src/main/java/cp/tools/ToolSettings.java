package cp.tools;

import java.util.Map;

/**
 * The built-in tools' configuration, read once from the worker's environment and passed in (no
 * tool reads the environment itself).
 *
 * @param writeFileMaxBytes the largest {@code content} write_file takes, in UTF-8 bytes
 *     ({@value WriteFileTool#MAX_BYTES_ENV})
 */
public record ToolSettings(int writeFileMaxBytes) {
  /** Every limit at its default. */
  public static final ToolSettings DEFAULTS = new ToolSettings(WriteFileTool.DEFAULT_MAX_BYTES);

  public ToolSettings {
    new WriteFileTool(writeFileMaxBytes); // the one place that checks the range, with the variable's name
  }

  /**
   * The settings {@code env} gives.
   *
   * @throws IllegalArgumentException naming the variable when a value is not a number in range
   */
  public static ToolSettings fromEnv(Map<String, String> env) {
    return new ToolSettings(WriteFileTool.fromEnvironment(env).maxBytes());
  }
}
