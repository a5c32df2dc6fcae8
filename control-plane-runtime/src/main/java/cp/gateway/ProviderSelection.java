package cp.gateway;

import java.util.Objects;
import java.util.Optional;

/**
 * Which provider the environment selects, with its settings and the reason, for startup output.
 *
 * @param type offline, anthropic or openai
 * @param settings present exactly when {@code type} is an HTTP provider
 * @param reason one line saying why, e.g. "CP_PROVIDER unset and ANTHROPIC_API_KEY not set";
 *     never contains a key
 */
public record ProviderSelection(ProviderType type, Optional<ProviderSettings> settings, String reason) {
  public ProviderSelection {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(reason, "reason");
    if ((type == ProviderType.OFFLINE) == settings.isPresent()) {
      throw new IllegalArgumentException(type.id() + " selection " + (settings.isPresent() ? "must not" : "must")
          + " carry HTTP settings");
    }
  }

  public static ProviderSelection offline(String reason) {
    return new ProviderSelection(ProviderType.OFFLINE, Optional.empty(), reason);
  }

  public static ProviderSelection http(ProviderType type, ProviderSettings settings, String reason) {
    return new ProviderSelection(type, Optional.of(settings), reason);
  }

  public boolean isOffline() {
    return type == ProviderType.OFFLINE;
  }
}
