package cp.gateway;

import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.openai.OpenAiProvider;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Chooses and builds the provider the environment asks for.
 *
 * <p>{@code CP_PROVIDER=offline|anthropic|openai}; when unset, anthropic if
 * {@code ANTHROPIC_API_KEY} is set, else offline, so a fresh checkout runs without a key. The
 * environment comes in as a map (callers pass {@code System.getenv()}), which keeps selection
 * testable. The offline provider is supplied by the caller, because it lives with the contracts
 * it must satisfy.
 */
public final class ProviderFactory {
  private static final String OPENAI_PUBLIC_HOST = ProviderSettings.DEFAULT_OPENAI_BASE_URL.getHost();

  private final Supplier<LlmProvider> offline;

  public ProviderFactory(Supplier<LlmProvider> offline) {
    this.offline = Objects.requireNonNull(offline, "offline");
  }

  /** Builds the provider {@code env} selects; throws {@link ProviderConfigException} if it cannot. */
  public LlmProvider create(Map<String, String> env) {
    return create(select(env));
  }

  /** Builds the provider for a selection made earlier (e.g. after printing its reason). */
  public LlmProvider create(ProviderSelection selection) {
    return switch (selection.type()) {
      case OFFLINE -> Objects.requireNonNull(offline.get(), "offline provider supplier returned null");
      case ANTHROPIC -> new AnthropicProvider(selection.settings().orElseThrow());
      case OPENAI -> new OpenAiProvider(selection.settings().orElseThrow());
    };
  }

  /** Decides which provider {@code env} selects and with which settings, without building it. */
  public static ProviderSelection select(Map<String, String> env) {
    ProviderEnvironment e = new ProviderEnvironment(env);
    String named = e.get(ProviderEnvironment.CP_PROVIDER).orElse(null);
    if (named == null) {
      return byDefault(e);
    }
    ProviderType type = ProviderType.fromId(named).orElseThrow(() -> new ProviderConfigException(
        ProviderEnvironment.CP_PROVIDER, ProviderEnvironment.CP_PROVIDER + "='" + named
            + "' is not known: use offline, anthropic or openai (or unset it for anthropic when "
            + ProviderEnvironment.ANTHROPIC_API_KEY + " is set, else offline)"));
    String reason = ProviderEnvironment.CP_PROVIDER + "=" + type.id();
    return switch (type) {
      case OFFLINE -> ProviderSelection.offline(reason);
      case ANTHROPIC -> anthropic(e, reason);
      case OPENAI -> openAi(e, reason);
    };
  }

  /**
   * The provider one agent's own model names (issue 22): each part that is given wins, the rest
   * comes from the worker's configuration. {@code provider} null means the worker's provider type;
   * {@code baseUrl} null the type's variable ({@code OPENAI_BASE_URL}, {@code ANTHROPIC_BASE_URL})
   * or default; {@code apiKeyEnv} the variable holding the key (never the key), null the type's own
   * key variable; {@code name} null the worker's model for the worker's type, else the type's
   * default model.
   *
   * @param where how messages name the model, e.g. {@code weather.yaml: model}
   * @throws ProviderConfigException naming the variable or value that is missing or wrong
   */
  public static ProviderSelection forModel(Map<String, String> env, ProviderSelection worker, String provider,
      String baseUrl, String apiKeyEnv, String name, String where) {
    ProviderEnvironment e = new ProviderEnvironment(env);
    ProviderType type = provider == null ? worker.type() : ProviderType.fromId(provider).orElseThrow(() ->
        new ProviderConfigException(where, where + ".provider '" + provider + "' is not known: use offline, anthropic"
            + " or openai"));
    String reason = where + (provider == null ? " (the worker's provider " + type.id() + ")" : ".provider=" + type.id());
    if (type == ProviderType.OFFLINE) {
      return ProviderSelection.offline(reason);
    }
    boolean anthropic = type == ProviderType.ANTHROPIC;
    String keyVariable = apiKeyEnv != null ? apiKeyEnv
        : anthropic ? ProviderEnvironment.ANTHROPIC_API_KEY : ProviderEnvironment.OPENAI_API_KEY;
    Secret key = e.secret(keyVariable);
    URI fallback = anthropic ? e.url(ProviderEnvironment.ANTHROPIC_BASE_URL, ProviderSettings.DEFAULT_ANTHROPIC_BASE_URL)
        : e.url(ProviderEnvironment.OPENAI_BASE_URL, ProviderSettings.DEFAULT_OPENAI_BASE_URL);
    URI base = baseUrl == null ? fallback : agentUrl(baseUrl, where);
    boolean publicApi = base.getHost().equalsIgnoreCase(anthropic ? ProviderSettings.DEFAULT_ANTHROPIC_BASE_URL.getHost()
        : OPENAI_PUBLIC_HOST);
    if (!key.isPresent() && (anthropic || publicApi)) {
      throw new ProviderConfigException(keyVariable, where + ": " + keyVariable + " is not set but the model is "
          + type.id() + " at " + base + "; export " + keyVariable + (apiKeyEnv == null ? " or name another variable in"
          + " api_key_env" : ""));
    }
    String model = name != null ? name : worker.type() == type && worker.settings().isPresent()
        ? worker.settings().get().defaultModel()
        : anthropic ? ProviderSettings.DEFAULT_ANTHROPIC_MODEL : ProviderSettings.DEFAULT_OPENAI_MODEL;
    ProviderSettings s = settings(e, base, key, model);
    return ProviderSelection.http(type, new ProviderSettings(s.baseUrl(), s.apiKey(), model, s.connectTimeout(),
        s.readTimeout(), s.anthropicVersion(), s.maxReplyBytes(), s.connectAttempts()), reason);
  }

  private static URI agentUrl(String baseUrl, String where) {
    try {
      URI u = new URI(baseUrl);
      if (u.getScheme() == null || !u.getScheme().matches("https?") || u.getHost() == null) {
        throw new ProviderConfigException(where, where + ".base_url '" + baseUrl + "' is not an http(s) URL with a host");
      }
      return u;
    } catch (java.net.URISyntaxException ex) {
      throw new ProviderConfigException(where, where + ".base_url '" + baseUrl + "' is malformed: " + ex.getReason());
    }
  }

  private static ProviderSelection byDefault(ProviderEnvironment e) {
    if (e.get(ProviderEnvironment.ANTHROPIC_API_KEY).isPresent()) {
      return anthropic(e, ProviderEnvironment.CP_PROVIDER + " unset and " + ProviderEnvironment.ANTHROPIC_API_KEY
          + " set");
    }
    String reason = ProviderEnvironment.CP_PROVIDER + " unset and " + ProviderEnvironment.ANTHROPIC_API_KEY
        + " not set";
    if (e.get(ProviderEnvironment.OPENAI_API_KEY).isPresent()) {
      reason += " (" + ProviderEnvironment.OPENAI_API_KEY + " is set; it is used only with "
          + ProviderEnvironment.CP_PROVIDER + "=openai)";
    }
    return ProviderSelection.offline(reason);
  }

  private static ProviderSelection anthropic(ProviderEnvironment e, String reason) {
    Secret key = e.secret(ProviderEnvironment.ANTHROPIC_API_KEY);
    if (!key.isPresent()) {
      throw new ProviderConfigException(ProviderEnvironment.ANTHROPIC_API_KEY, ProviderEnvironment.ANTHROPIC_API_KEY
          + " is not set but " + ProviderEnvironment.CP_PROVIDER + "=anthropic: export "
          + ProviderEnvironment.ANTHROPIC_API_KEY + ", or set " + ProviderEnvironment.CP_PROVIDER
          + "=offline to run without a model");
    }
    URI base = e.url(ProviderEnvironment.ANTHROPIC_BASE_URL, ProviderSettings.DEFAULT_ANTHROPIC_BASE_URL);
    return ProviderSelection.http(ProviderType.ANTHROPIC,
        settings(e, base, key, ProviderSettings.DEFAULT_ANTHROPIC_MODEL), reason);
  }

  private static ProviderSelection openAi(ProviderEnvironment e, String reason) {
    URI base = e.url(ProviderEnvironment.OPENAI_BASE_URL, ProviderSettings.DEFAULT_OPENAI_BASE_URL);
    Secret key = e.secret(ProviderEnvironment.OPENAI_API_KEY);
    if (!key.isPresent() && base.getHost().toLowerCase(Locale.ROOT).equals(OPENAI_PUBLIC_HOST)) {
      throw new ProviderConfigException(ProviderEnvironment.OPENAI_API_KEY, ProviderEnvironment.OPENAI_API_KEY
          + " is not set but requests go to " + OPENAI_PUBLIC_HOST + ": export " + ProviderEnvironment.OPENAI_API_KEY
          + ", or set " + ProviderEnvironment.OPENAI_BASE_URL + " to a local server such as http://localhost:11434/v1");
    }
    return ProviderSelection.http(ProviderType.OPENAI,
        settings(e, base, key, ProviderSettings.DEFAULT_OPENAI_MODEL), reason);
  }

  private static ProviderSettings settings(ProviderEnvironment e, URI base, Secret key, String defaultModel) {
    return new ProviderSettings(
        base,
        key,
        e.get(ProviderEnvironment.CP_MODEL).orElse(defaultModel),
        e.millis(ProviderEnvironment.CP_HTTP_CONNECT_TIMEOUT_MS, ProviderSettings.DEFAULT_CONNECT_TIMEOUT),
        e.millis(ProviderEnvironment.CP_HTTP_READ_TIMEOUT_MS, ProviderSettings.DEFAULT_READ_TIMEOUT),
        ProviderSettings.DEFAULT_ANTHROPIC_VERSION,
        e.bytes(ProviderEnvironment.CP_HTTP_MAX_REPLY_BYTES, ProviderSettings.DEFAULT_MAX_REPLY_BYTES,
            ProviderSettings.MAX_REPLY_BYTES_CEILING, "an LLM round's result carries the reply twice and Temporal"
                + " refuses a payload over 2 MiB, so a larger reply could never reach the workflow"),
        e.count(ProviderEnvironment.CP_HTTP_CONNECT_ATTEMPTS, ProviderSettings.DEFAULT_CONNECT_ATTEMPTS,
            ProviderSettings.MAX_CONNECT_ATTEMPTS));
  }
}
