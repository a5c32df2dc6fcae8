package cp.gateway;

import static cp.gateway.GatewayHarness.CALL_TIME;
import static cp.gateway.GatewayHarness.COOLDOWN;
import static cp.gateway.GatewayHarness.THRESHOLD;
import static cp.gateway.GatewayHarness.expectedPrompt;
import static cp.gateway.GatewayHarness.inActivity;
import static cp.gateway.GatewayHarness.providerError;
import static cp.gateway.GatewayHarness.reply;
import static cp.gateway.GatewayHarness.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round trip that fails after it was sent: the EXCHANGE still records the prompt with the
 * error and latency, the {@link GatewayException} tells Temporal whether and when to retry, and
 * the circuit breaker opens on provider-health failures only and closes after a good trial.
 */
class GatewayFailureTest {
  @TempDir Path dir;
  private GatewayHarness h;

  @BeforeEach
  void start() {
    h = new GatewayHarness(dir);
  }

  @AfterEach
  void ledgerChainStillVerifies() {
    h.verifyChainAndClose();
  }

  // ------------------------------------------------------------------ error exchanges

  @Test
  void providerError_exchangeStillRecordsThePromptItTriedToSend() {
    h.provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "internal error"));
    h.routeFailing(request());

    ObjectNode m = h.onlyExchange();
    assertEquals(expectedPrompt(), m.get("prompt"));
    assertEquals(Json.sha256(Json.canonical(expectedPrompt())), m.get("context_hash").asText());
  }

  @Test
  void providerError_exchangeHasErrorCodeMessageAndStatus() {
    ProviderException error = providerError(ProviderErrorKind.SERVER_ERROR, 503, null, "service unavailable");
    h.provider.fails(error);
    h.routeFailing(request());

    ObjectNode m = h.onlyExchange();
    assertEquals("server_error", m.get("error_code").asText());
    assertEquals(error.getMessage(), m.get("error_message").asText());
    assertEquals(503, m.get("http_status").asInt());
    assertEquals("", m.get("response").asText());
  }

  @Test
  void timeout_isRecordedWithOutcomeTimeout() {
    h.provider.fails(providerError(ProviderErrorKind.TIMEOUT, 0, null, "read timed out after 60 s"));
    h.routeFailing(request());

    assertEquals("timeout", h.onlyExchange().get("outcome").asText());
    assertEquals("TIMEOUT", h.exchanges().get(0).decision());
    assertFalse(h.onlyExchange().has("http_status"), "no response, no status");
  }

  @Test
  void serverError_isRecordedWithOutcomeError() {
    h.provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "internal error"));
    h.routeFailing(request());

    assertEquals("error", h.onlyExchange().get("outcome").asText());
    assertEquals("ERROR", h.exchanges().get(0).decision());
  }

  @Test
  void latency_isRecordedOnFailedAndSuccessfulExchanges() {
    h.provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "internal error")).answers(reply("ok"));
    h.routeFailing(request());
    PromptResponse ok = h.route(request());

    assertEquals(2, h.exchanges().size());
    for (LedgerEntry e : h.exchanges()) {
      assertEquals(CALL_TIME.toMillis(), e.meta("latency_ms").asLong(), e.decision());
    }
    assertEquals(CALL_TIME.toMillis(), ok.latencyMs());
  }

  // ------------------------------------------------------------------ what the exception tells Temporal

  @Test
  void rateLimited_isRetryableAfterTheProvidersRetryAfter() {
    h.provider.fails(providerError(ProviderErrorKind.RATE_LIMITED, 429, Duration.ofSeconds(20), "slow down"));
    GatewayException e = h.routeFailing(request());

    assertEquals("rate_limited", e.errorCode());
    assertTrue(e.retryable());
    assertEquals(Duration.ofSeconds(20), e.retryAfter().orElseThrow());
    assertEquals(h.exchanges().get(0).entryId(), e.entryId());
  }

  @Test
  void overloadedWithoutRetryAfter_isRetryableOnTheActivitysOwnSchedule() {
    h.provider.fails(providerError(ProviderErrorKind.OVERLOADED, 529, null, "overloaded"));
    GatewayException e = h.routeFailing(request());

    assertTrue(e.retryable());
    assertTrue(e.retryAfter().isEmpty());
  }

  @Test
  void badRequestAndAuthenticationFailures_areNotRetryable() {
    h.provider.fails(providerError(ProviderErrorKind.BAD_REQUEST, 400, null, "messages: field required"))
        .fails(providerError(ProviderErrorKind.AUTHENTICATION, 401, null, "invalid x-api-key"));
    GatewayException bad = h.routeFailing(request());
    GatewayException auth = h.routeFailing(request());

    assertEquals("bad_request", bad.errorCode());
    assertFalse(bad.retryable());
    assertEquals("authentication", auth.errorCode());
    assertFalse(auth.retryable());
  }

  @Test
  void providerCrash_isRecordedAsRetryableProviderFailure_withoutItsMessage() {
    h.provider.crashes(new IllegalStateException("parser blew up near sk-ant-secret-key"));
    GatewayException e = h.routeFailing(request());

    assertEquals("provider_failure", e.errorCode());
    assertTrue(e.retryable());
    assertEquals("provider_failure", h.onlyExchange().get("error_code").asText());
    assertFalse(h.ledger.readAll().toString().contains("sk-ant"), "an unclassified message may hold a secret");
    assertFalse(e.getMessage().contains("sk-ant"));
  }

  // ------------------------------------------------------------------ circuit breaker

  @Test
  void consecutiveProviderFailures_openTheBreaker_andTheNextRouteIsRefusedWithoutACall() {
    h.failServerErrors(THRESHOLD);
    h.advanceBreakerClock(Duration.ofSeconds(10));

    GatewayException e = h.routeFailing(request());

    assertEquals(THRESHOLD, h.provider.calls());
    assertEquals(Gateway.CIRCUIT_OPEN, e.errorCode());
    assertTrue(e.retryable());
    assertEquals(COOLDOWN.minusSeconds(10), e.retryAfter().orElseThrow(), "retry when the cooldown ends");
    LedgerEntry rejected = h.ledger.lastN(1).get(0);
    assertEquals(ExchangeRecords.PROMPT_REJECTED, rejected.eventType());
    assertEquals(Gateway.CIRCUIT_OPEN, rejected.metaText("error_code"));
    assertEquals(rejected.entryId(), e.entryId());
    assertEquals(THRESHOLD, h.exchanges().size(), "the refused call is not an exchange");
  }

  @Test
  void afterTheCooldown_aSuccessfulTrialClosesTheBreaker() {
    h.failServerErrors(THRESHOLD);
    assertEquals(CircuitBreaker.State.OPEN, h.breakerState());
    h.advanceBreakerClock(COOLDOWN);
    h.provider.answers(reply("back")).answers(reply("still here"));

    assertEquals("back", h.route(request()).text());
    assertEquals(CircuitBreaker.State.CLOSED, h.breakerState());
    assertEquals("still here", h.route(request()).text());
    assertEquals(THRESHOLD + 2, h.provider.calls());
  }

  @Test
  void badRequestAndAuthenticationFailures_doNotOpenTheBreaker() {
    for (int i = 0; i < THRESHOLD; i++) {
      h.provider.fails(providerError(ProviderErrorKind.BAD_REQUEST, 400, null, "bad " + i))
          .fails(providerError(ProviderErrorKind.AUTHENTICATION, 401, null, "bad key " + i));
    }
    for (int i = 0; i < 2 * THRESHOLD; i++) {
      h.routeFailing(request());
    }
    h.provider.answers(reply("ok"));

    assertEquals(CircuitBreaker.State.CLOSED, h.breakerState());
    assertEquals(RouteOutcome.SUCCESS, h.route(request()).outcome());
    assertEquals(2 * THRESHOLD + 1, h.provider.calls());
  }

  @Test
  void halfOpenTrialAnsweredWithABadRequest_doesNotLeaveTheBreakerRefusingForever() {
    h.failServerErrors(THRESHOLD);
    h.advanceBreakerClock(COOLDOWN);
    h.provider.fails(providerError(ProviderErrorKind.BAD_REQUEST, 400, null, "max_tokens too large"))
        .answers(reply("ok"));
    assertEquals("bad_request", h.routeFailing(request()).errorCode());

    PromptResponse next = h.route(request());

    assertEquals(RouteOutcome.SUCCESS, next.outcome(), "the provider answered the trial, so it is up");
    assertEquals(THRESHOLD + 2, h.provider.calls());
  }

  @Test
  void retriedActivityAfterSuccess_isReplayedEvenWhileTheBreakerIsOpen() {
    h.provider.answers(reply("done before the outage"));
    h.route(inActivity("5", 1));
    h.failServerErrors(THRESHOLD);
    assertEquals(CircuitBreaker.State.OPEN, h.breakerState());

    PromptResponse retry = h.route(inActivity("5", 2));

    assertTrue(retry.replayed());
    assertEquals("done before the outage", retry.text());
  }
}
