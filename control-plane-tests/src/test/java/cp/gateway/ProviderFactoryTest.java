package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.openai.OpenAiProvider;
import cp.model.PromptRequest;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Provider selection from environment variables, and the one-line errors for misconfiguration. */
class ProviderFactoryTest {
  private static final String KEY = "sk-ant-api03-FACTORYTESTKEY";

  /** Stands in for the offline provider another package supplies. */
  private static final LlmProvider OFFLINE = new LlmProvider() {
    @Override
    public String id() {
      return "offline";
    }

    @Override
    public ProviderReply send(PromptRequest request) {
      throw new UnsupportedOperationException("not used here");
    }
  };

  private final ProviderFactory factory = new ProviderFactory(() -> OFFLINE);

  @Test
  void nothingSet_isOffline_andBuildsTheSuppliedOfflineProvider() {
    ProviderSelection s = ProviderFactory.select(Map.of());

    assertTrue(s.isOffline());
    assertEquals("CP_PROVIDER unset and ANTHROPIC_API_KEY not set", s.reason());
    assertSame(OFFLINE, factory.create(Map.of()));
  }

  @Test
  void providerUnset_anthropicKeySet_isAnthropicWithDefaults() {
    ProviderSelection s = ProviderFactory.select(Map.of("ANTHROPIC_API_KEY", KEY));

    assertEquals(ProviderType.ANTHROPIC, s.type());
    ProviderSettings settings = s.settings().orElseThrow();
    assertEquals(URI.create("https://api.anthropic.com"), settings.baseUrl());
    assertEquals(Secret.of(KEY), settings.apiKey());
    assertEquals("claude-sonnet-4-5", settings.defaultModel());
    assertEquals(ProviderSettings.DEFAULT_CONNECT_TIMEOUT, settings.connectTimeout());
    assertEquals(ProviderSettings.DEFAULT_READ_TIMEOUT, settings.readTimeout());
    assertEquals("2023-06-01", settings.anthropicVersion());
    assertInstanceOf(AnthropicProvider.class, factory.create(s));
  }

  @Test
  void providerUnset_onlyOpenAiKeySet_staysOffline_andSaysWhy() {
    ProviderSelection s = ProviderFactory.select(Map.of("OPENAI_API_KEY", "sk-proj-abc"));

    assertTrue(s.isOffline());
    assertTrue(s.reason().contains("OPENAI_API_KEY is set; it is used only with CP_PROVIDER=openai"), s.reason());
  }

  @Test
  void explicitOffline_winsOverAKey_caseInsensitive() {
    assertTrue(ProviderFactory.select(Map.of("CP_PROVIDER", " Offline ", "ANTHROPIC_API_KEY", KEY)).isOffline());
  }

  @Test
  void anthropic_overridesFromEnvironment() {
    ProviderSettings s = ProviderFactory.select(Map.of(
        "CP_PROVIDER", "anthropic",
        "ANTHROPIC_API_KEY", KEY,
        "ANTHROPIC_BASE_URL", "https://proxy.internal/anthropic",
        "CP_MODEL", "claude-haiku-4-5",
        "CP_HTTP_CONNECT_TIMEOUT_MS", "2500",
        "CP_HTTP_READ_TIMEOUT_MS", "90000")).settings().orElseThrow();

    assertEquals(URI.create("https://proxy.internal/anthropic"), s.baseUrl());
    assertEquals("claude-haiku-4-5", s.defaultModel());
    assertEquals(Duration.ofMillis(2500), s.connectTimeout());
    assertEquals(Duration.ofSeconds(90), s.readTimeout());
    assertEquals(Duration.ofMillis(92_500), s.callTimeout());
  }

  @Test
  void openAi_localServerWithoutKey_isFine() {
    ProviderSelection s = ProviderFactory.select(Map.of(
        "CP_PROVIDER", "openai", "OPENAI_BASE_URL", "http://localhost:11434", "CP_MODEL", "llama3.1:8b"));

    ProviderSettings settings = s.settings().orElseThrow();
    assertFalse(settings.apiKey().isPresent());
    assertEquals("llama3.1:8b", settings.defaultModel());
    OpenAiProvider provider = assertInstanceOf(OpenAiProvider.class, factory.create(s));
    assertEquals("http://localhost:11434/v1/chat/completions", provider.endpoint().toString());
  }

  @Test
  void openAi_defaults() {
    ProviderSettings s = ProviderFactory.select(Map.of("CP_PROVIDER", "openai", "OPENAI_API_KEY", "sk-proj-abc"))
        .settings().orElseThrow();

    assertEquals(URI.create("https://api.openai.com/v1"), s.baseUrl());
    assertEquals("gpt-4o-mini", s.defaultModel());
  }

  @Test
  void anthropicWithoutKey_namesTheVariable() {
    assertConfigError("ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY is not set but CP_PROVIDER=anthropic: export"
        + " ANTHROPIC_API_KEY, or set CP_PROVIDER=offline to run without a model",
        Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "  "));
  }

  @Test
  void openAiPublicApiWithoutKey_namesTheVariable() {
    assertConfigError("OPENAI_API_KEY", null, Map.of("CP_PROVIDER", "openai"));
  }

  @Test
  void unknownProvider_namesTheVariableAndTheChoices() {
    ProviderConfigException e = assertConfigError("CP_PROVIDER", null, Map.of("CP_PROVIDER", "gemini"));

    assertTrue(e.getMessage().startsWith("CP_PROVIDER='gemini' is not known: use offline, anthropic or openai"),
        e.getMessage());
  }

  @Test
  void malformedUrls_nameTheVariable() {
    assertConfigError("OPENAI_BASE_URL", "OPENAI_BASE_URL='localhost:11434/v1' is not an http(s) URL: give scheme"
        + " and host, e.g. OPENAI_BASE_URL=https://api.openai.com/v1",
        Map.of("CP_PROVIDER", "openai", "OPENAI_BASE_URL", "localhost:11434/v1"));
    assertConfigError("ANTHROPIC_BASE_URL", null,
        Map.of("ANTHROPIC_API_KEY", KEY, "ANTHROPIC_BASE_URL", "ftp://api.anthropic.com"));
    assertConfigError("ANTHROPIC_BASE_URL", null,
        Map.of("ANTHROPIC_API_KEY", KEY, "ANTHROPIC_BASE_URL", "https://"));
  }

  @Test
  void badTimeouts_nameTheVariable() {
    assertConfigError("CP_HTTP_READ_TIMEOUT_MS", "CP_HTTP_READ_TIMEOUT_MS='30s' is not a positive whole number of"
        + " milliseconds: e.g. CP_HTTP_READ_TIMEOUT_MS=600000",
        Map.of("ANTHROPIC_API_KEY", KEY, "CP_HTTP_READ_TIMEOUT_MS", "30s"));
    assertConfigError("CP_HTTP_CONNECT_TIMEOUT_MS", null,
        Map.of("ANTHROPIC_API_KEY", KEY, "CP_HTTP_CONNECT_TIMEOUT_MS", "0"));
  }

  @Test
  void maxReplyBytes_defaultsTo512KiB_isRead_andBadOrTooHighValuesNameTheVariable() {
    assertEquals(512 * 1024, ProviderFactory.select(Map.of("ANTHROPIC_API_KEY", KEY)).settings().orElseThrow()
        .maxReplyBytes());
    assertEquals(100_000, ProviderFactory.select(Map.of("ANTHROPIC_API_KEY", KEY, "CP_HTTP_MAX_REPLY_BYTES", "100000"))
        .settings().orElseThrow().maxReplyBytes());
    assertConfigError("CP_HTTP_MAX_REPLY_BYTES", "CP_HTTP_MAX_REPLY_BYTES='8MB' is not a positive whole number of"
        + " bytes: e.g. CP_HTTP_MAX_REPLY_BYTES=524288",
        Map.of("ANTHROPIC_API_KEY", KEY, "CP_HTTP_MAX_REPLY_BYTES", "8MB"));
    assertConfigError("CP_HTTP_MAX_REPLY_BYTES", null, Map.of("ANTHROPIC_API_KEY", KEY, "CP_HTTP_MAX_REPLY_BYTES", "0"));
    ProviderConfigException high = assertConfigError("CP_HTTP_MAX_REPLY_BYTES", null,
        Map.of("CP_PROVIDER", "openai", "OPENAI_BASE_URL", "http://localhost:8000/v1",
            "CP_HTTP_MAX_REPLY_BYTES", String.valueOf(8 * 1024 * 1024)));
    assertTrue(high.getMessage().contains("is over 983040 bytes") && high.getMessage().contains("2 MiB"),
        high.getMessage());
  }

  @Test
  void keyWithLineBreak_isRejectedWithoutQuotingIt() {
    ProviderConfigException e = assertConfigError("ANTHROPIC_API_KEY", null,
        Map.of("ANTHROPIC_API_KEY", "sk-ant-SECRETPART\nsecond-line"));

    assertFalse(e.getMessage().contains("SECRETPART"), e.getMessage());
  }

  @Test
  void selectionAndSettings_printTheKeyMasked() {
    ProviderSelection s = ProviderFactory.select(Map.of("ANTHROPIC_API_KEY", KEY));

    assertFalse(s.toString().contains(KEY), s.toString());
    assertTrue(s.toString().contains("apiKey=sk-…(masked)"), s.toString());
  }

  private static ProviderConfigException assertConfigError(String variable, String message, Map<String, String> env) {
    ProviderConfigException e = assertThrows(ProviderConfigException.class, () -> ProviderFactory.select(env));
    assertEquals(variable, e.variable());
    if (message != null) {
      assertEquals(message, e.getMessage());
    }
    assertTrue(e.getMessage().startsWith(variable), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e;
  }
}
