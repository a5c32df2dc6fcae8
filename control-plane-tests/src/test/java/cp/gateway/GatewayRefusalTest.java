package cp.gateway;

import static cp.gateway.GatewayHarness.IN;
import static cp.gateway.GatewayHarness.OUT;
import static cp.gateway.GatewayHarness.QUESTION;
import static cp.gateway.GatewayHarness.fieldNames;
import static cp.gateway.GatewayHarness.reply;
import static cp.gateway.GatewayHarness.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerEntry;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests the gateway refuses before sending (seed 004's rejections): a five-field
 * PROMPT_REJECTED without the prompt, a REJECTED response, and no provider call. Also how the
 * budget sizes the calls it lets through.
 */
class GatewayRefusalTest {
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

  // ------------------------------------------------------------------ the PROMPT_REJECTED record

  @Test
  void rejection_hasExactlyTheFiveLightweightFields() {
    h.route(request().tokenBudgetRemaining(1L));
    h.route(request().maxTokens(0));

    assertEquals(2, h.rejections().size());
    for (LedgerEntry e : h.rejections()) {
      assertEquals(Set.of("agent_id", "session_id", "contract_id", "error_code", "error_message"),
          fieldNames(e.metadata()));
      assertEquals("REJECTED", e.decision());
    }
  }

  @Test
  void rejection_recordsNoPrompt_andNeverCallsTheProvider() {
    PromptResponse r = h.route(request().tokenBudgetRemaining(1L));

    assertEquals(0, h.provider.calls());
    assertEquals(RouteOutcome.REJECTED, r.outcome());
    assertEquals(List.of(), h.exchanges());
    LedgerEntry rejected = h.rejections().get(0);
    assertFalse(rejected.metadata().has("prompt"));
    assertFalse(rejected.toString().contains(QUESTION), "no prompt text anywhere in the record");
    assertEquals(rejected.entryId(), r.exchangeEntryId());
    assertNull(r.contextHash());
  }

  // ------------------------------------------------------------------ budget

  @Test
  void budgetNotAboveThePromptEstimatePlusMaxTokens_isRejectedAsBudgetExhausted_withoutAProviderCall() {
    long reservation = TokenEstimate.ofPrompt(request().build()) + 1024;
    PromptResponse below = h.route(request().maxTokens(1024).tokenBudgetRemaining(reservation - 1));
    PromptResponse onlyThePrompt = h.route(request().maxTokens(1024)
        .tokenBudgetRemaining(TokenEstimate.ofPrompt(request().build())));

    for (PromptResponse r : List.of(below, onlyThePrompt)) {
      assertEquals(RouteOutcome.REJECTED, r.outcome());
      assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode());
    }
    assertEquals(0, h.provider.calls());
    assertEquals(List.of(Gateway.BUDGET_EXHAUSTED, Gateway.BUDGET_EXHAUSTED),
        h.rejections().stream().map(e -> e.metaText("error_code")).toList());
    assertTrue(h.rejections().get(0).metaText("error_message").contains("it was not sent"));
  }

  /**
   * Issue 20 §2: a call started with 5,940 tokens left used 9,010 (the session ended 5.1 % over its
   * cap): max_tokens was cut to what the estimate left over, and the prompt cost more than its
   * estimate. A call now reserves its prompt's estimate plus all of its max_tokens, or is not sent.
   */
  @Test
  void theOvershootCase_aBigPromptWith5940TokensLeft_isNotSent_andOneThatFitsIsSentWithItsMaxTokens() {
    String big = "x".repeat(4_900 * TokenEstimate.CHARS_PER_TOKEN);
    PromptResponse r = h.route(request().messages(List.of(Message.user(big))).maxTokens(4096)
        .tokenBudgetRemaining(5_940L));

    assertEquals(RouteOutcome.REJECTED, r.outcome());
    assertEquals(Gateway.BUDGET_EXHAUSTED, r.errorCode());
    assertEquals(0, h.provider.calls(), "nothing was sent, nothing was paid");

    h.provider.answers(reply("ok"));
    long reservation = TokenEstimate.ofPrompt(request().build()) + 1024;
    h.route(request().maxTokens(1024).tokenBudgetRemaining(reservation));
    assertEquals(1, h.provider.calls());
    assertEquals(1024, h.provider.lastRequest().maxTokens(), "max_tokens is never cut to fit");
  }

  @Test
  void successfulRoute_reportsTheBudgetLeftAfterTheProvidersTokens() {
    h.provider.answers(reply("ok"));
    PromptResponse r = h.route(request().tokenBudgetRemaining(10_000L));

    assertEquals(10_000L - IN - OUT, r.budgetRemaining());
  }

  // ------------------------------------------------------------------ invalid requests

  static Stream<Arguments> invalidRequests() {
    return Stream.of(
        invalid("empty messages", b -> b.messages(List.of()), "messages is empty"),
        invalid("assistant speaks first", b -> b.messages(List.of(Message.assistant("Hi."), Message.user("hi"))),
            "first message must be from the user"),
        invalid("max_tokens 0", b -> b.maxTokens(0), "max_tokens must be >= 1, was 0"),
        invalid("temperature 3", b -> b.temperature(3.0), "temperature must be within 0..2.0, was 3.0"),
        invalid("unknown provider", b -> b.provider("nonesuch"), "provider 'nonesuch' is not configured"));
  }

  private static Arguments invalid(String label, UnaryOperator<PromptRequest.Builder> breakIt, String problem) {
    return Arguments.of(label, breakIt, problem);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidRequests")
  void invalidRequest_isRejectedAsInvalidRequest_namingTheProblem(String label,
      UnaryOperator<PromptRequest.Builder> breakIt, String problem) {
    PromptResponse r = h.route(breakIt.apply(request()));

    assertEquals(RouteOutcome.REJECTED, r.outcome());
    assertEquals(Gateway.INVALID_REQUEST, r.errorCode());
    assertTrue(r.errorMessage().contains(problem), r.errorMessage());
    LedgerEntry rejected = h.rejections().get(0);
    assertEquals(Gateway.INVALID_REQUEST, rejected.metaText("error_code"));
    assertTrue(rejected.metaText("error_message").contains(problem), rejected.metaText("error_message"));
    assertEquals(0, h.provider.calls());
  }
}
