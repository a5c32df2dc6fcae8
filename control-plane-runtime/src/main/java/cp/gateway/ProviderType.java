package cp.gateway;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Which backend answers prompts: the offline rule engine or an HTTP provider. */
public enum ProviderType {
  OFFLINE,
  ANTHROPIC,
  OPENAI;

  /** The lower-case name used in {@code CP_PROVIDER} and in EXCHANGE records. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type named {@code id} (case-insensitive, trimmed), if any. */
  public static Optional<ProviderType> fromId(String id) {
    String wanted = id == null ? "" : id.strip();
    return Arrays.stream(values()).filter(t -> t.id().equalsIgnoreCase(wanted)).findFirst();
  }
}
