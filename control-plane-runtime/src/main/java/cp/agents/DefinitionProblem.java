package cp.agents;

import java.util.Objects;

/**
 * One thing wrong with an agent definition, as {@code cpctl agents check} prints it:
 * {@code file: key: what is wrong} ({@code file: key: warning: …} for a warning).
 *
 * @param file the definition's file name
 * @param key the key, dotted ({@code budget.session_tokens}, {@code mcp_servers.weather.url},
 *     {@code tools[2]}); empty for the whole file
 * @param warning true for something that works but should be changed (a secret written in a
 *     header); false for an error, which stops the worker
 */
public record DefinitionProblem(String file, String key, String message, boolean warning) {
  public DefinitionProblem {
    Objects.requireNonNull(file, "file");
    key = key == null ? "" : key;
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return file + ": " + (key.isEmpty() ? "" : key + ": ") + (warning ? "warning: " : "") + message;
  }
}
