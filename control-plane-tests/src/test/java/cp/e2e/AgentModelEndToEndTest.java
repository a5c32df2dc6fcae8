package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model per agent (issue 22 item 5): a defined class whose definition names an
 * OpenAI-compatible local server (base_url, model name, a key from the variable api_key_env
 * names, max_tokens) talks to that server while the worker's own provider (offline here) serves
 * ADMIN; EXCHANGE names the provider and model; the agent's instructions are the synthesize
 * step's system prompt; its output_schema is structured output the quality gate retries for.
 */
class AgentModelEndToEndTest {
  /** No common key prefix (sk-, ...): only its registration with the masker can hide it. */
  static final String KEY = "local-model-key-0123456789abcdefXYZ";
  @TempDir Path tmp;
  @StartStop final MockWebServer local = new MockWebServer();

  /** An OpenAI-compatible server: classify answered, synthesize first without a result, then with one. */
  private final class LocalModel extends Dispatcher {
    final AtomicInteger synthesize = new AtomicInteger();

    @Override
    public MockResponse dispatch(RecordedRequest r) {
      String body = r.getBody().utf8();
      String content;
      if (body.contains("write the reply to the user")) {
        content = synthesize.incrementAndGet() == 1 ? "{\"response_text\":\"Sunny in Lisbon.\"}"
            : "{\"response_text\":\"Sunny in Lisbon.\",\"result\":{\"city\":\"Lisbon\",\"celsius\":21}}";
      } else {
        content = "{\"speech_act\":\"question\",\"ambiguity\":\"low\"}";
      }
      String reply = Json.object().put("id", "chatcmpl-1").put("model", "llama3:8b").set("choices",
          Json.MAPPER.createArrayNode().add(Json.object().put("index", 0).put("finish_reason", "stop")
              .set("message", Json.object().put("role", "assistant").put("content", content)))).toString();
      JsonNode withUsage = ((com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(reply)).set("usage",
          Json.object().put("prompt_tokens", 50).put("completion_tokens", 10));
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body(withUsage.toString()).build();
    }
  }

  @Test
  void aDefinedAgentsOwnModel_servesItsTurns_whileTheWorkersProviderServesAdmin() throws Exception {
    LocalModel model = new LocalModel();
    local.setDispatcher(model);
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You are the weather desk of Lisbon.
        model: {provider: openai, name: 'llama3:8b', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        max_tokens: 300
        output_schema:
          type: object
          properties: {city: {type: string}, celsius: {type: number}}
          required: [city, celsius]
        """.formatted(local.url("/v1").toString()));
    Map<String, String> env = PlaneFixture.env(tmp.resolve("home"), Map.of("CP_AGENTS_DIR", agents.toString(),
        "LOCAL_MODEL_KEY", KEY, "PATH", System.getenv("PATH")));

    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");

      assertEquals("success", r.outcome(), r::toString);
      assertEquals("Sunny in Lisbon.", r.response());
      assertEquals(2, model.synthesize.get(), "the reply without its result was sent back by the quality gate once");
      List<RecordedRequest> sent = Stream.generate(() -> take(local)).limit(local.getRequestCount()).toList();
      for (RecordedRequest q : sent) {
        assertEquals("Bearer " + KEY, q.getHeaders().get("authorization"), "the key of api_key_env");
        JsonNode body = Json.parse(q.getBody().utf8());
        assertEquals("llama3:8b", body.path("model").asText());
        assertTrue(body.path("max_tokens").asInt() <= 300, body.path("max_tokens")::toString);
      }
      String synthesize = sent.stream().map(q -> q.getBody().utf8()).filter(b -> b.contains("write the reply"))
          .findFirst().orElseThrow();
      assertTrue(synthesize.contains("You are the weather desk of Lisbon."), "the instructions in the synthesize step");
      assertTrue(synthesize.contains("Structured output"), "the model is told the result's schema");

      List<LedgerEntry> exchanges = plane.runtime.ledgers().hot().bySession(sid).stream()
          .filter(e -> "EXCHANGE".equals(e.eventType())).toList();
      assertEquals(3, exchanges.size(), "classify, synthesize, synthesize again");
      for (LedgerEntry e : exchanges) {
        assertEquals("openai@WEATHER", e.metaText("provider_id"), e.toString());
        assertEquals("llama3:8b", e.metaText("model_id"), e.toString());
      }
      assertFalse(exchanges.get(1).metadata().path("output_valid").asBoolean(true),
          "the gateway found the first reply without its result invalid");

      String admin = plane.client.startSession("ADMIN");
      assertEquals("success", plane.client.turn(admin, "hello").outcome());
      LedgerEntry adminExchange = plane.runtime.ledgers().hot().bySession(admin).stream()
          .filter(e -> "EXCHANGE".equals(e.eventType())).findFirst().orElseThrow();
      assertEquals("offline", adminExchange.metaText("provider_id"), "ADMIN keeps the worker's provider");
      assertEquals(2, model.synthesize.get(), "ADMIN's turn did not reach the agent's server");

      assertFalse(plane.runtime.masker().mask("the key is " + KEY).contains(KEY),
          "the key of api_key_env is registered with the worker's masker (logs, spans, ledgers, CLI output)");
      try (Stream<Path> files = Files.walk(tmp.resolve("home"))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertFalse(Files.readString(f).contains(KEY), "the key is in " + f);
        }
      }
    }
  }

  private static RecordedRequest take(MockWebServer server) {
    try {
      return server.takeRequest();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
