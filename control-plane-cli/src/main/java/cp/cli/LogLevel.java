package cp.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code CP_LOG_LEVEL}: the level of our own loggers, read by logback.xml from the environment.
 *
 * <p>Logback takes any word there and silently falls back to DEBUG for one it does not know, so
 * a typo would change what the process prints without a word. Every command checks the value
 * first and refuses one that is not a level.
 */
final class LogLevel {
  static final String VARIABLE = "CP_LOG_LEVEL";
  /** The levels logback knows (case-insensitive), most verbose first. */
  static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

  private LogLevel() {}

  /** What is wrong with {@code CP_LOG_LEVEL} in {@code env}, if anything (unset or empty means the default). */
  static Optional<String> problem(Map<String, String> env) {
    String raw = env.get(VARIABLE);
    if (raw == null || raw.isEmpty() || LEVELS.contains(raw.toUpperCase(Locale.ROOT))) {
      return Optional.empty();
    }
    return Optional.of(VARIABLE + ": '" + raw + "' is not a log level (use " + String.join(", ", LEVELS) + ")");
  }
}
