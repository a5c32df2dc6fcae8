package cp.model;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one definition of an agent class name (issue 21): upper-case letters, digits and
 * {@code _}, starting with a letter, at most 64 characters. The catalog, the ledger's directory
 * names, the session's start contract and the client all check against it; agent classes become
 * directory names, so the alphabet is kept safe for every file system.
 */
public final class AgentClassName {
  /** Longest agent class: a directory name well inside every file system's limit. */
  public static final int MAX_LENGTH = 64;
  public static final Pattern PATTERN = Pattern.compile("[A-Z][A-Z0-9_]{0," + (MAX_LENGTH - 1) + "}");

  private AgentClassName() {}

  /** Whether {@code name} is an agent class name (not whether the catalog has it). */
  public static boolean isValid(String name) {
    return name != null && PATTERN.matcher(name).matches();
  }

  /** The name a user probably meant ("admin" → "ADMIN"), when that one is valid; else empty. */
  public static Optional<String> suggestion(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String upper = name.trim().toUpperCase(Locale.ROOT);
    return !upper.equals(name) && isValid(upper) ? Optional.of(upper) : Optional.empty();
  }
}
