package cp.gateway;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How to reach one HTTP provider: base URL, key, default model, timeouts, API version.
 *
 * <p>The whole round trip is bounded by {@link #callTimeout()} (connect + read), so the
 * activity that calls the provider can set its start-to-close timeout just above that and
 * never abandon a call that is still running. {@code toString} is safe to log: the key prints
 * masked.
 *
 * @param baseUrl http(s) root of the API, e.g. {@code https://api.anthropic.com}
 * @param apiKey {@link Secret#NONE} when the server needs no key
 * @param defaultModel used when a request names no model
 * @param connectTimeout TCP + TLS setup
 * @param readTimeout longest silence while waiting for the response (also the write timeout)
 * @param anthropicVersion value of the {@code anthropic-version} header (ignored by OpenAI)
 */
public record ProviderSettings(
    URI baseUrl,
    Secret apiKey,
    String defaultModel,
    Duration connectTimeout,
    Duration readTimeout,
    String anthropicVersion) {

  /** The Anthropic public API; the SDKs use the same default. */
  public static final URI DEFAULT_ANTHROPIC_BASE_URL = URI.create("https://api.anthropic.com");
  /** The OpenAI public API root, including its version segment as OpenAI's SDKs expect. */
  public static final URI DEFAULT_OPENAI_BASE_URL = URI.create("https://api.openai.com/v1");
  /** A current, mid-priced Anthropic model that handles tool use well. */
  public static final String DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
  /** OpenAI's small, cheap tool-capable model; local servers are told a model via CP_MODEL. */
  public static final String DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
  /** The stable Messages API version; newer features are opted into with beta headers, not versions. */
  public static final String DEFAULT_ANTHROPIC_VERSION = "2023-06-01";
  /** Same as OkHttp's default: a healthy TCP + TLS handshake takes well under a second. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  /**
   * Ten minutes, the request timeout of the official Anthropic and OpenAI SDKs. Without
   * streaming the first response byte arrives only after the whole completion is generated, so
   * this must cover the slowest generation we accept, not network latency.
   */
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofMinutes(10);

  public ProviderSettings {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(apiKey, "apiKey (use Secret.NONE for none)");
    Objects.requireNonNull(defaultModel, "defaultModel");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(anthropicVersion, "anthropicVersion");
    String scheme = baseUrl.getScheme() == null ? "" : baseUrl.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || baseUrl.getHost() == null) {
      throw new IllegalArgumentException("baseUrl must be an absolute http(s) URL with a host, was '" + baseUrl + "'");
    }
    if (defaultModel.isBlank()) {
      throw new IllegalArgumentException("defaultModel must not be blank");
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(readTimeout, "readTimeout");
  }

  /** Anthropic defaults with the given key. */
  public static ProviderSettings anthropic(Secret apiKey) {
    return new ProviderSettings(DEFAULT_ANTHROPIC_BASE_URL, apiKey, DEFAULT_ANTHROPIC_MODEL,
        DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, DEFAULT_ANTHROPIC_VERSION);
  }

  /** OpenAI defaults with the given key. */
  public static ProviderSettings openAi(Secret apiKey) {
    return new ProviderSettings(DEFAULT_OPENAI_BASE_URL, apiKey, DEFAULT_OPENAI_MODEL,
        DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, DEFAULT_ANTHROPIC_VERSION);
  }

  /** The upper bound on one whole round trip: connect + read. */
  public Duration callTimeout() {
    return connectTimeout.plus(readTimeout);
  }

  public ProviderSettings withBaseUrl(URI url) {
    return new ProviderSettings(url, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion);
  }

  public ProviderSettings withDefaultModel(String model) {
    return new ProviderSettings(baseUrl, apiKey, model, connectTimeout, readTimeout, anthropicVersion);
  }

  public ProviderSettings withTimeouts(Duration connect, Duration read) {
    return new ProviderSettings(baseUrl, apiKey, defaultModel, connect, read, anthropicVersion);
  }

  private static void requirePositive(Duration d, String name) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }
}
