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
 * @param maxReplyBytes the longest response body read (decoded bytes); a longer 2xx reply fails
 *     as {@link ProviderErrorKind#REPLY_TOO_LARGE}, at most {@link #MAX_REPLY_BYTES_CEILING}
 * @param connectAttempts how many attempts of one call may end unable to connect
 *     ({@link ProviderErrorKind#PROVIDER_UNREACHABLE}) before the call gives up, at least 1
 * @param baseUrlOrigin where {@code baseUrl} came from, as an endpoint that cannot be reached names it
 *     ({@code model.base_url in weather.yaml}); null: the provider type's variable ({@code OPENAI_BASE_URL})
 *     or its default
 */
public record ProviderSettings(
    URI baseUrl,
    Secret apiKey,
    String defaultModel,
    Duration connectTimeout,
    Duration readTimeout,
    String anthropicVersion,
    long maxReplyBytes,
    int connectAttempts,
    String baseUrlOrigin) {

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
  /**
   * The highest reply size that can cross into workflow history. An LLM round returns its
   * reply's text twice (the text, and the output parsed from it) in one activity result, and
   * Temporal refuses a payload over 2 MiB (the server's default {@code limit.blobSize.error})
   * and a gRPC message over 4 MiB: a 4 MB reply made an 8.4 MB result that the worker could not
   * report, so the service timed the activity out. Half of 2 MiB, less room for the rest of the
   * result.
   */
  public static final long MAX_REPLY_BYTES_CEILING = 1024L * 1024 - 64 * 1024;
  /**
   * 512 KiB: four times the largest reply a current model can produce (64k output tokens at
   * about 4 bytes each is about 256 KB of JSON), and a round result of at most about 1 MiB,
   * half of what Temporal accepts.
   */
  public static final long DEFAULT_MAX_REPLY_BYTES = 512L * 1024;
  /**
   * Two: one retry covers a server that was restarting or a port that was briefly closed; an
   * endpoint still refusing after that is down or misconfigured, and more attempts only make the
   * user wait (five attempts with backoff took about 22 s before the turn said anything).
   */
  public static final int DEFAULT_CONNECT_ATTEMPTS = 2;
  /** More connect attempts than the LLM activity's default attempts would never be used. */
  public static final int MAX_CONNECT_ATTEMPTS = 10;

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
    if (maxReplyBytes < 1 || maxReplyBytes > MAX_REPLY_BYTES_CEILING) {
      throw new IllegalArgumentException("maxReplyBytes must be within 1.." + MAX_REPLY_BYTES_CEILING + ", was "
          + maxReplyBytes);
    }
    if (connectAttempts < 1 || connectAttempts > MAX_CONNECT_ATTEMPTS) {
      throw new IllegalArgumentException("connectAttempts must be within 1.." + MAX_CONNECT_ATTEMPTS + ", was "
          + connectAttempts);
    }
  }

  /** Settings whose base URL came from the provider type's variable or default. */
  public ProviderSettings(URI baseUrl, Secret apiKey, String defaultModel, Duration connectTimeout,
      Duration readTimeout, String anthropicVersion, long maxReplyBytes, int connectAttempts) {
    this(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion, maxReplyBytes, connectAttempts,
        null);
  }

  /** Settings with the default connect budget, {@link #DEFAULT_CONNECT_ATTEMPTS}. */
  public ProviderSettings(URI baseUrl, Secret apiKey, String defaultModel, Duration connectTimeout,
      Duration readTimeout, String anthropicVersion, long maxReplyBytes) {
    this(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion, maxReplyBytes,
        DEFAULT_CONNECT_ATTEMPTS);
  }

  /** Settings with the default reply limit, {@link #DEFAULT_MAX_REPLY_BYTES}. */
  public ProviderSettings(URI baseUrl, Secret apiKey, String defaultModel, Duration connectTimeout,
      Duration readTimeout, String anthropicVersion) {
    this(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion, DEFAULT_MAX_REPLY_BYTES);
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

  /** These settings with another base URL, whose origin is then the provider type's variable (unless given). */
  public ProviderSettings withBaseUrl(URI url) {
    return new ProviderSettings(url, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion,
        maxReplyBytes, connectAttempts, null);
  }

  public ProviderSettings withDefaultModel(String model) {
    return new ProviderSettings(baseUrl, apiKey, model, connectTimeout, readTimeout, anthropicVersion, maxReplyBytes,
        connectAttempts, baseUrlOrigin);
  }

  public ProviderSettings withTimeouts(Duration connect, Duration read) {
    return new ProviderSettings(baseUrl, apiKey, defaultModel, connect, read, anthropicVersion, maxReplyBytes,
        connectAttempts, baseUrlOrigin);
  }

  public ProviderSettings withMaxReplyBytes(long bytes) {
    return new ProviderSettings(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion, bytes,
        connectAttempts, baseUrlOrigin);
  }

  public ProviderSettings withConnectAttempts(int attempts) {
    return new ProviderSettings(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion,
        maxReplyBytes, attempts, baseUrlOrigin);
  }

  /** These settings, their base URL named by {@code origin} ({@code model.base_url in weather.yaml}) in advice. */
  public ProviderSettings withBaseUrlOrigin(String origin) {
    return new ProviderSettings(baseUrl, apiKey, defaultModel, connectTimeout, readTimeout, anthropicVersion,
        maxReplyBytes, connectAttempts, origin);
  }

  private static void requirePositive(Duration d, String name) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }
}
