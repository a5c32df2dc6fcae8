package cp.gateway;

import static cp.gateway.ProviderFixtures.FIXED_CLOCK;
import static cp.gateway.ProviderFixtures.TEST_KEY;
import static cp.gateway.ProviderFixtures.closedPort;
import static cp.gateway.ProviderFixtures.failsWith;
import static cp.gateway.ProviderFixtures.request;
import static cp.gateway.ProviderFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.anthropic.AnthropicProvider;
import cp.gateway.openai.OpenAiProvider;
import org.junit.jupiter.api.Test;

/**
 * Where a provider's base URL came from travels with its settings ({@link ProviderSettings#baseUrlOrigin()}),
 * so the provider's own message for an endpoint it cannot reach names it. Before, the provider always named its
 * type's variable ({@code OPENAI_BASE_URL}) and the worker rewrote that text for an agent's own endpoint; these
 * calls go to the providers directly, with no rewriting, so they fail if the text rule is what names the origin.
 */
class BaseUrlOriginTest {
  static final String ORIGIN = "model.base_url in weather.yaml";

  @Test
  void anOpenAiEndpointThatCannotBeReached_namesWhereItsUrlCameFrom_sendAndStream() throws Exception {
    OpenAiProvider provider = new OpenAiProvider(settings(closedPort(), Secret.of(TEST_KEY), "llama3:8b")
        .withBaseUrlOrigin(ORIGIN).withConnectAttempts(1), FIXED_CLOCK);
    for (ProviderException e : new ProviderException[] {
        failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.send(request().build())),
        failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.stream(request().build(), StreamSink.NONE))}) {
      assertTrue(e.providerMessage().contains("base URL (" + ORIGIN + ") names it"), e.providerMessage());
      assertFalse(e.providerMessage().contains("OPENAI_BASE_URL"), e.providerMessage());
    }
  }

  @Test
  void anAnthropicEndpointThatCannotBeReached_namesWhereItsUrlCameFrom() throws Exception {
    AnthropicProvider provider = new AnthropicProvider(settings(closedPort(), Secret.of(TEST_KEY), "claude-sonnet-4-5")
        .withBaseUrlOrigin("fallback[0].base_url in support.yaml").withConnectAttempts(1), FIXED_CLOCK);
    ProviderException e = failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.send(request().build()));
    assertTrue(e.providerMessage().contains("(fallback[0].base_url in support.yaml)"), e.providerMessage());
    assertFalse(e.providerMessage().contains("ANTHROPIC_BASE_URL"), e.providerMessage());
  }

  @Test
  void withoutAnOrigin_theProviderTypesVariableIsNamed_asBefore() throws Exception {
    OpenAiProvider provider = new OpenAiProvider(settings(closedPort(), Secret.of(TEST_KEY), "gpt-4o-mini")
        .withConnectAttempts(1), FIXED_CLOCK);
    ProviderException e = failsWith(ProviderErrorKind.PROVIDER_UNREACHABLE, () -> provider.send(request().build()));
    assertTrue(e.providerMessage().contains("(OPENAI_BASE_URL)"), e.providerMessage());
  }
}
