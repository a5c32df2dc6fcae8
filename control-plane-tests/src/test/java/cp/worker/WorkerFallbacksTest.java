package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ProviderFactory;
import cp.gateway.ProviderSelection;
import cp.model.FallbackModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 23: CP_FALLBACK_MODELS, the built-in agents' fallback chain. */
class WorkerFallbacksTest {
  static final ProviderSelection WORKER = ProviderFactory.select(Map.of("CP_PROVIDER", "anthropic",
      "ANTHROPIC_API_KEY", "sk-ant-test-0123456789"));

  @Test
  void entries_sameEndpointKeepsTheWorkersProvider_anotherGetsARouteOfItsOwn() {
    Map<String, String> env = Map.of("CP_PROVIDER", "anthropic", "ANTHROPIC_API_KEY", "sk-ant-test-0123456789",
        "OPENAI_API_KEY", "sk-test-0123456789", WorkerFallbacks.VARIABLE, "anthropic:claude-haiku-4-5, openai:gpt-4o-mini");
    WorkerFallbacks.Chain chain = WorkerFallbacks.of(env, WORKER);
    assertEquals(List.of(new FallbackModel(null, "claude-haiku-4-5"), new FallbackModel("openai@fallback~2",
        "gpt-4o-mini")), chain.models());
    assertEquals(List.of("openai@fallback~2"), List.copyOf(chain.routes().keySet()));
  }

  @Test
  void unsetIsNoChain_andABadEntryIsAConfigErrorNamingTheVariable() {
    assertEquals(List.of(), WorkerFallbacks.of(Map.of(), WORKER).models());
    for (String bad : List.of("gpt-4o-mini", "mistral:large", "openai:gpt-4o-mini")) {
      ConfigException e = assertThrows(ConfigException.class,
          () -> WorkerFallbacks.of(Map.of(WorkerFallbacks.VARIABLE, bad), WORKER), bad);
      assertEquals(WorkerFallbacks.VARIABLE, e.variable(), e.getMessage());
      assertTrue(e.getMessage().contains(WorkerFallbacks.VARIABLE), e.getMessage());
    }
  }
}
