package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 5 with two fake models (OpenAI-compatible servers): the agent's own model is
 * overloaded (529), its definition's fallback answers; the reply comes from the fallback within
 * the same attempt (the first model is asked once per call, not through its retry schedule), each
 * attempt is an EXCHANGE naming provider and model, and a FALLBACK entry says from what, to what
 * and why. A 400 does not fall back; without a fallback the turn goes as it always did.
 */
class FallbackEndToEndTest {
  @TempDir Path tmp;
  @StartStop final MockWebServer primary = new MockWebServer();
  @StartStop final MockWebServer backup = new MockWebServer();

  private static Dispatcher failing(int status) {
    return new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest r) {
        return new MockResponse.Builder().code(status).setHeader("content-type", "application/json")
            .body("{\"error\":{\"message\":\"" + (status == 529 ? "Overloaded" : "bad request") + "\",\"type\":\"x\"}}")
            .build();
      }
    };
  }

  private static final Dispatcher ANSWERING = new Dispatcher() {
    @Override
    public MockResponse dispatch(RecordedRequest r) {
      String content = r.getBody().utf8().contains("write the reply to the user") ? "{\"response_text\":\"Sunny.\"}"
          : "{\"speech_act\":\"question\",\"ambiguity\":\"low\"}";
      var reply = Json.object().put("id", "chatcmpl-1").put("model", "backup-1");
      reply.putArray("choices").add(Json.object().put("index", 0).put("finish_reason", "stop")
          .set("message", Json.object().put("role", "assistant").put("content", content)));
      reply.set("usage", Json.object().put("prompt_tokens", 50).put("completion_tokens", 10));
      return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
          .body(reply.toString()).build();
    }
  };

  private Map<String, String> env(boolean withFallback) throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    String fallback = withFallback ? """
        fallback:
          - {provider: openai, name: 'backup-1', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        """.formatted(backup.url("/v1").toString()) : "";
    Files.writeString(agents.resolve("weather.yaml"), """
        agent_class: WEATHER
        instructions: You are the weather desk of Lisbon.
        model: {provider: openai, name: 'primary-1', base_url: '%s', api_key_env: LOCAL_MODEL_KEY}
        """.formatted(primary.url("/v1").toString()) + fallback);
    Map<String, String> env = new HashMap<>(PlaneFixture.env(tmp.resolve("home"), Map.of("CP_AGENTS_DIR",
        agents.toString(), "LOCAL_MODEL_KEY", "k-0123456789", "PATH", System.getenv("PATH"))));
    env.put("CP_LLM_MAX_ATTEMPTS", "2");
    env.put("CP_DEGRADED_MAX_ATTEMPTS", "1");
    return env;
  }

  /** Answers after failing the first {@code failures} requests with 529 (overloaded). */
  private static Dispatcher overloadedThenAnswering(int failures) {
    java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
    Dispatcher overloaded = failing(529);
    return new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest r) throws InterruptedException {
        return seen.incrementAndGet() <= failures ? overloaded.dispatch(r) : ANSWERING.dispatch(r);
      }
    };
  }

  /**
   * The agent of {@link #env} with a dollar budget its own model (primary-1, cheap) can pay for and
   * its fallback (backup-1, at claude-opus-4-1's list price) cannot: $0.03 is less than max_tokens
   * 800 at $75 per million output tokens alone ($0.06).
   */
  private Map<String, String> envWithTightBudget() throws Exception {
    Map<String, String> env = env(true);
    Path agent = tmp.resolve("agents").resolve("weather.yaml");
    Files.writeString(agent, Files.readString(agent) + "max_tokens: 800\nbudget: {work_order_usd: 0.03,"
        + " session_usd: 0.5}\n");
    env.put("CP_PRICES_FILE", Files.writeString(tmp.resolve("prices.yaml"), """
        primary-1: {input_per_mtok: 1.0, output_per_mtok: 5.0}
        backup-1: {input_per_mtok: 15.0, output_per_mtok: 75.0}
        """).toString());
    return env;
  }

  /**
   * Issue 23: a passing overload of the agent's own model with a fallback its work order's dollars
   * cannot pay for. Before, the call went on to the fallback, which the budget refused, and the
   * turn ended at once with "cannot pay for its next model call", the 529 unmentioned and the
   * primary never retried. Now the fallback is skipped (a FALLBACK entry SKIPPED, for budget) and
   * the primary is retried as it would be without a fallback, and answers.
   */
  @Test
  void aFallbackTheBudgetCannotPayFor_isSkipped_andThePrimaryIsRetried() throws Exception {
    primary.setDispatcher(overloadedThenAnswering(1));
    backup.setDispatcher(ANSWERING);
    try (PlaneFixture plane = PlaneFixture.start(envWithTightBudget(), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");

      assertEquals("success", r.outcome(), r::toString);
      assertEquals("Sunny.", r.response());
      assertEquals(0, backup.getRequestCount(), "the fallback the budget cannot pay for is never asked");
      assertEquals(3, primary.getRequestCount(), "classify overloaded, classify retried, synthesize");
      List<LedgerEntry> fallbacks = hot(plane, sid, "FALLBACK");
      assertEquals(1, fallbacks.size(), fallbacks::toString);
      LedgerEntry skipped = fallbacks.get(0);
      assertEquals("SKIPPED", skipped.decision());
      assertEquals("budget", skipped.metaText("skipped"));
      assertEquals("backup-1", skipped.metaText("to_model"));
      assertEquals("overloaded", skipped.metaText("error_code"));
      assertTrue(skipped.metaText("skip_reason").contains("USD budget (work_order) has $0.0300 left"),
          skipped.metadata().toString());
      assertEquals(List.of(), hot(plane, sid, "PROMPT_REJECTED"), "no call was refused for budget");
    }
  }

  /**
   * Issue 23: the same with a tenant's daily cap ($0.03) in place of the work order's dollars: the
   * dearer fallback, refused by the tenant's cap when it is sent, is passed over and the primary is
   * retried. Before, the turn ended on the cap ("USD budget (tenant_day) … try again after the reset")
   * while the tenant had nearly all of its day left.
   */
  @Test
  void aFallbackTheTenantsCapRefuses_isPassedOver_andThePrimaryIsRetried() throws Exception {
    primary.setDispatcher(overloadedThenAnswering(1));
    backup.setDispatcher(ANSWERING);
    Map<String, String> env = env(true);
    env.put("CP_PRICES_FILE", Files.writeString(tmp.resolve("prices.yaml"), """
        primary-1: {input_per_mtok: 1.0, output_per_mtok: 5.0}
        backup-1: {input_per_mtok: 15.0, output_per_mtok: 75.0}
        """).toString());
    env.put("CP_TENANTS_FILE", Files.writeString(tmp.resolve("tenants.json"),
        "{\"tenants\": {\"acme\": {\"daily_usd\": 0.03}}}").toString());
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER", "acme");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");

      assertEquals("success", r.outcome(), r::toString);
      assertEquals(0, backup.getRequestCount(), "the fallback the tenant's cap refuses is never asked");
      assertEquals(3, primary.getRequestCount(), "classify overloaded, classify retried, synthesize");
      List<LedgerEntry> rejected = hot(plane, sid, "PROMPT_REJECTED");
      assertEquals(1, rejected.size(), "the fallback's refusal is recorded");
      assertEquals("budget_exhausted", rejected.get(0).metaText("error_code"), rejected.get(0).metadata().toString());
    }
  }

  /**
   * Issue 23: when the overload lasts, the work order fails as the provider failed (after its
   * retries on the primary, never a budget failure), and the user's message names the 529 and the
   * fallback skipped for budget (here the degraded call's fallback, which no work order's dollars
   * bind, is overloaded too).
   */
  @Test
  void aLastingOverload_withAnUnaffordableFallback_failsNamingThe529AndTheSkippedFallback() throws Exception {
    primary.setDispatcher(failing(529));
    backup.setDispatcher(failing(529));
    try (PlaneFixture plane = PlaneFixture.start(envWithTightBudget(), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");

      assertNotEquals("success", r.outcome(), r::toString);
      assertNotEquals("budget_exhausted", r.errorCode(), r::toString);
      System.out.println("a lasting overload with an unaffordable fallback: " + r.response());
      assertTrue(r.response().contains("HTTP 529") && r.response().contains("OVERLOADED"), r.response());
      assertTrue(r.response().contains("fallback openai@WEATHER~1/backup-1 skipped for budget"), r.response());
      assertFalse(r.response().contains("Infinity"), r.response());
      // The work order's two attempts went to the primary and skipped the fallback; the degraded call may try it.
      assertEquals(2, hot(plane, sid, "FALLBACK").stream().filter(f -> "SKIPPED".equals(f.decision())).count());
      assertTrue(primary.getRequestCount() >= 3, "retried on the primary: " + primary.getRequestCount());
      assertEquals(1, backup.getRequestCount(), "only the degraded call, which no work order's dollars bind");
    }
  }

  private static List<LedgerEntry> hot(PlaneFixture plane, String sid, String type) {
    return plane.runtime.ledgers().hot().bySession(sid).stream().filter(x -> x.eventType().equals(type)).toList();
  }

  @Test
  void anOverloadedModel_fallsBackWithinTheAttempt_bothExchangesAndTheFallbackRecorded() throws Exception {
    primary.setDispatcher(failing(529));
    backup.setDispatcher(ANSWERING);
    try (PlaneFixture plane = PlaneFixture.start(env(true), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      long t0 = System.nanoTime();
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      long ms = (System.nanoTime() - t0) / 1_000_000;

      assertEquals("success", r.outcome(), r::toString);
      assertEquals("Sunny.", r.response());
      System.out.println("fallback turn answered in " + ms + " ms");
      assertEquals(2, primary.getRequestCount(), "the overloaded model was asked once per call, never retried");
      assertEquals(2, backup.getRequestCount());
      List<LedgerEntry> exchanges = hot(plane, sid, "EXCHANGE");
      assertEquals(4, exchanges.size(), "an EXCHANGE per attempt");
      assertEquals(2, exchanges.stream().filter(x -> "primary-1".equals(x.metaText("model_id"))
          && "openai@WEATHER".equals(x.metaText("provider_id")) && x.meta("http_status").asInt() == 529).count());
      assertEquals(2, exchanges.stream().filter(x -> "backup-1".equals(x.metaText("model_id"))
          && "openai@WEATHER~1".equals(x.metaText("provider_id")) && "success".equals(x.metaText("outcome"))).count());
      List<LedgerEntry> fallbacks = hot(plane, sid, "FALLBACK");
      assertEquals(2, fallbacks.size());
      for (LedgerEntry f : fallbacks) {
        assertEquals("primary-1", f.metaText("from_model"));
        assertEquals("backup-1", f.metaText("to_model"));
        assertEquals("openai@WEATHER~1", f.metaText("to_provider"));
        assertEquals("overloaded", f.metaText("error_code"));
      }
      // cpctl show says which model answered, and the fallbacks.
      var out = new java.io.ByteArrayOutputStream();
      int code = cp.cli.Cpctl.run(new String[] {"show", sid}, env(true), java.io.InputStream.nullInputStream(),
          new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8), System.err);
      String shown = out.toString(java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(0, code, shown);
      assertTrue(shown.contains("answered by: openai@WEATHER~1/backup-1 (2 calls)"), shown);
      assertTrue(shown.contains("FALLBACK") && shown.contains("openai@WEATHER/primary-1 -> openai@WEATHER~1/backup-1:"
          + " overloaded"), shown);
    }
  }

  @Test
  void aBadRequest_doesNotFallBack() throws Exception {
    primary.setDispatcher(failing(400));
    backup.setDispatcher(ANSWERING);
    try (PlaneFixture plane = PlaneFixture.start(env(true), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      assertNotEquals("success", r.outcome(), r::toString);
      assertEquals(0, backup.getRequestCount(), "a 400 is the request's fault: no other model is asked");
      assertEquals(List.of(), hot(plane, sid, "FALLBACK"));
    }
  }

  @Test
  void withoutAFallback_anOverloadedModelIsRetriedAsBefore() throws Exception {
    primary.setDispatcher(failing(529));
    backup.setDispatcher(ANSWERING);
    Map<String, String> env = env(false);
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("WEATHER");
      TurnResult r = plane.client.turn(sid, "weather in Lisbon?");
      assertNotEquals("success", r.outcome(), r::toString);
      assertEquals(0, backup.getRequestCount());
      assertTrue(primary.getRequestCount() >= 2, "retried: " + primary.getRequestCount());
      assertEquals(List.of(), hot(plane, sid, "FALLBACK"));
    }
  }
}
