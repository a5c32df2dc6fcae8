package cp.gateway;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import okhttp3.HttpUrl;

/**
 * The environment variables that configure providers, read from a map and validated.
 *
 * <p>A blank value counts as unset. Every invalid value becomes a {@link ProviderConfigException}
 * naming the variable; no message quotes a key.
 */
public final class ProviderEnvironment {
  public static final String CP_PROVIDER = "CP_PROVIDER";
  public static final String CP_MODEL = "CP_MODEL";
  public static final String ANTHROPIC_API_KEY = "ANTHROPIC_API_KEY";
  public static final String ANTHROPIC_BASE_URL = "ANTHROPIC_BASE_URL";
  public static final String OPENAI_API_KEY = "OPENAI_API_KEY";
  public static final String OPENAI_BASE_URL = "OPENAI_BASE_URL";
  public static final String CP_HTTP_CONNECT_TIMEOUT_MS = "CP_HTTP_CONNECT_TIMEOUT_MS";
  public static final String CP_HTTP_READ_TIMEOUT_MS = "CP_HTTP_READ_TIMEOUT_MS";
  public static final String CP_HTTP_MAX_REPLY_BYTES = "CP_HTTP_MAX_REPLY_BYTES";
  public static final String CP_HTTP_CONNECT_ATTEMPTS = "CP_HTTP_CONNECT_ATTEMPTS";

  private final Map<String, String> env;

  public ProviderEnvironment(Map<String, String> env) {
    this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
  }

  /** The trimmed value, or empty when unset or blank. */
  public Optional<String> get(String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
  }

  /** The key in {@code name}, or {@link Secret#NONE} when unset. */
  public Secret secret(String name) {
    try {
      return get(name).map(Secret::of).orElse(Secret.NONE);
    } catch (IllegalArgumentException e) {
      throw new ProviderConfigException(name, name + ": " + e.getMessage());
    }
  }

  /** An absolute http(s) URL with a host, or {@code fallback} when unset. */
  public URI url(String name, URI fallback) {
    Optional<String> value = get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    String v = value.get();
    String scheme = v.contains("://") ? v.substring(0, v.indexOf("://")).toLowerCase(Locale.ROOT) : "";
    if ((scheme.equals("http") || scheme.equals("https")) && HttpUrl.parse(v) != null) {
      try {
        URI uri = new URI(v);
        if (uri.getHost() != null) {
          return uri;
        }
      } catch (URISyntaxException e) {
        // reported below
      }
    }
    throw new ProviderConfigException(name, name + "='" + v + "' is not an http(s) URL: give scheme and host, e.g. "
        + name + "=" + fallback);
  }

  /** A positive number of milliseconds, or {@code fallback} when unset. */
  public Duration millis(String name, Duration fallback) {
    Optional<String> value = get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      long ms = Long.parseLong(value.get());
      if (ms > 0) {
        return Duration.ofMillis(ms);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ProviderConfigException(name, name + "='" + value.get()
        + "' is not a positive whole number of milliseconds: e.g. " + name + "=" + fallback.toMillis());
  }

  /** A whole number within {@code 1..max}, or {@code fallback} when unset. */
  public int count(String name, int fallback, int max) {
    Optional<String> value = get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.get());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ProviderConfigException(name, name + "='" + value.get() + "' is not a whole number within 1.." + max
        + ": e.g. " + name + "=" + fallback);
  }

  /** A whole number of bytes within {@code 1..ceiling}, or {@code fallback} when unset. */
  public long bytes(String name, long fallback, long ceiling, String whyCeiling) {
    Optional<String> value = get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    long n;
    try {
      n = Long.parseLong(value.get());
    } catch (NumberFormatException e) {
      n = -1;
    }
    if (n < 1) {
      throw new ProviderConfigException(name, name + "='" + value.get()
          + "' is not a positive whole number of bytes: e.g. " + name + "=" + fallback);
    }
    if (n > ceiling) {
      throw new ProviderConfigException(name, name + "=" + n + " is over " + ceiling + " bytes: " + whyCeiling);
    }
    return n;
  }
}
