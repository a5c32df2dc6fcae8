package cp.gateway;

import static cp.gateway.GatewayHarness.AGENT;
import static cp.gateway.GatewayHarness.CONTRACT;
import static cp.gateway.GatewayHarness.IN;
import static cp.gateway.GatewayHarness.MODEL;
import static cp.gateway.GatewayHarness.OUT;
import static cp.gateway.GatewayHarness.PRICE;
import static cp.gateway.GatewayHarness.RUN;
import static cp.gateway.GatewayHarness.SESSION;
import static cp.gateway.GatewayHarness.WORKFLOW;
import static cp.gateway.GatewayHarness.WORK_ORDER;
import static cp.gateway.GatewayHarness.expectedPrompt;
import static cp.gateway.GatewayHarness.inActivity;
import static cp.gateway.GatewayHarness.providerError;
import static cp.gateway.GatewayHarness.reply;
import static cp.gateway.GatewayHarness.request;
import static cp.gateway.GatewayHarness.structured;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.PromptResponse;
import cp.model.RouteOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a round trip leaves in the HOT ledger (seed 004): one EXCHANGE with the prompt, the
 * response, identity, tokens and context hash; its link to the Temporal activity that made the
 * call, which replaces seed 004's DISPATCH marker and lets a retried activity replay a finished
 * exchange; output validation; the response's ids and cost; and an offline end-to-end run.
 * Failures and refusals are in {@link GatewayFailureTest} and {@link GatewayRefusalTest}.
 */
class GatewayTest {
  private static final Pattern LEDGER_ID = Pattern.compile("LED-[0-9a-f]{16}");
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

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

  // ------------------------------------------------------------------ exchange recording

  @Test
  void exchange_recordsTheCanonicalPrompt_systemMessagesAndToolNames() {
    h.provider.answers(reply("Two packages are installed."));
    h.route(request());

    assertEquals(expectedPrompt(), h.onlyExchange().get("prompt"));
  }

  @Test
  void exchange_recordsTheResponseText() {
    h.provider.answers(reply("Two packages are installed."));
    PromptResponse r = h.route(request());

    assertEquals("Two packages are installed.", h.onlyExchange().get("response").asText());
    assertEquals("Two packages are installed.", r.text());
  }

  @Test
  void exchange_recordsOutcomeSuccess() {
    h.provider.answers(reply("ok"));
    PromptResponse r = h.route(request());

    assertEquals(RouteOutcome.SUCCESS, r.outcome());
    assertEquals("success", h.onlyExchange().get("outcome").asText());
    assertEquals("SUCCESS", h.exchanges().get(0).decision());
  }

  @Test
  void oneRoundTrip_writesExactlyOneLedgerEntry_anExchange() {
    h.provider.answers(reply("ok"));
    h.route(request());

    List<LedgerEntry> all = h.ledger.readAll();
    assertEquals(1, all.size(), "one round trip is one memory: " + all);
    assertEquals(ExchangeRecords.EXCHANGE, all.get(0).eventType());
  }

  @Test
  void noPromptSentOrPromptReceivedEntries_onSuccessOrFailure() {
    h.provider.answers(reply("ok")).fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "boom"));
    h.route(request());
    h.routeFailing(request());

    assertEquals(List.of(), h.ledger.byEventType("PROMPT_SENT"));
    assertEquals(List.of(), h.ledger.byEventType("PROMPT_RECEIVED"));
    assertEquals(2, h.exchanges().size());
  }

  @Test
  void exchange_carriesTheSixIdentityFieldsOfTheRequest() {
    h.provider.answers(reply("ok"));
    h.route(request());

    ObjectNode m = h.onlyExchange();
    assertEquals(AGENT, m.get("agent_id").asText());
    assertEquals(SESSION, m.get("session_id").asText());
    assertEquals(WORK_ORDER, m.get(cp.ledger.LedgerKeys.WO_ID).asText());
    assertEquals("ho1", m.get("tier").asText());
    assertEquals(CONTRACT, m.get("contract_id").asText());
    assertEquals("FMWK-000", m.get("framework_id").asText());
  }

  @Test
  void exchange_carriesTheProviderReportedTokenCounts() {
    h.provider.answers(reply("ok"));
    h.route(request());

    assertEquals(IN, h.onlyExchange().get("input_tokens").asLong());
    assertEquals(OUT, h.onlyExchange().get("output_tokens").asLong());
  }

  @Test
  void exchange_carriesTheModelIdTheProviderReported_notTheRequestedAlias() {
    h.provider.answers(reply("ok"));
    h.route(request().model("model-x-latest"));

    assertEquals(MODEL, h.onlyExchange().get("model_id").asText());
  }

  @Test
  void exchange_leavesOutFieldsThatBelongToTheContractOrWorkOrder() {
    h.provider.answers(reply("ok")).fails(providerError(ProviderErrorKind.SERVER_ERROR, 502, null, "bad gateway"));
    h.route(request());
    h.routeFailing(request());

    assertEquals(2, h.exchanges().size());
    for (LedgerEntry e : h.exchanges()) {
      for (String field : List.of("agent_class", "package_id", "prompt_pack_id", "max_tokens", "temperature",
          "domain_tags")) {
        assertFalse(e.metadata().has(field), e.decision() + " exchange must not carry " + field);
      }
    }
  }

  @Test
  void contextHash_isTheSha256OfTheCanonicalPrompt() {
    h.provider.answers(reply("ok")).answers(reply("ok"));
    PromptResponse r = h.route(request());
    PromptResponse other = h.route(request().system("You are RESIDENT."));

    ObjectNode m = h.exchanges().get(0).metadata();
    String hash = m.get("context_hash").asText();
    assertTrue(SHA256_HEX.matcher(hash).matches(), hash);
    assertEquals(Json.sha256(Json.canonical(m.get("prompt"))), hash);
    assertEquals(hash, r.contextHash());
    assertNotEquals(hash, other.contextHash(), "a different prompt must hash differently");
  }

  // ------------------------------------------------------------------ Temporal linkage (replaces DISPATCH)

  @Test
  void exchange_carriesWorkflowRunActivityAndAttemptFromTheRequest() {
    h.provider.answers(reply("ok"));
    h.route(inActivity("12", 3));

    ObjectNode m = h.onlyExchange();
    assertEquals(WORKFLOW, m.get("workflow_id").asText());
    assertEquals(RUN, m.get("run_id").asText());
    assertEquals("12", m.get("activity_id").asText());
    assertEquals(3, m.get("attempt").asInt());
  }

  @Test
  void exchangeOutsideAnActivity_hasNoTemporalFields() {
    h.provider.answers(reply("ok"));
    h.route(request());

    ObjectNode m = h.onlyExchange();
    for (String field : List.of("workflow_id", "run_id", "activity_id", "attempt")) {
      assertFalse(m.has(field), field);
    }
  }

  @Test
  void retriedActivityAfterSuccess_isAnsweredFromTheLedger_withoutCallingTheProviderAgain() {
    h.provider.answers(reply("Two packages are installed."));
    PromptResponse first = h.route(inActivity("5", 1).tokenBudgetRemaining(10_000L));
    PromptResponse retry = h.route(inActivity("5", 2).tokenBudgetRemaining(10_000L));

    assertEquals(1, h.provider.calls(), "the retried activity must not pay for the call twice");
    assertFalse(first.replayed());
    assertTrue(retry.replayed());
    assertEquals(first.content(), retry.content());
    assertEquals(first.inputTokens(), retry.inputTokens());
    assertEquals(first.outputTokens(), retry.outputTokens());
    assertEquals(first.exchangeEntryId(), retry.exchangeEntryId());
    assertEquals(first.contextHash(), retry.contextHash());
    assertEquals(first.modelId(), retry.modelId());
    assertEquals(first.finishReason(), retry.finishReason());
    assertEquals(first.cost(), retry.cost());
    assertEquals(first.budgetRemaining(), retry.budgetRemaining());
    assertEquals(1, h.exchanges().size());
  }

  @Test
  void failedAttempts_areEachRecordedOnce_evenWhenAnAttemptIsRoutedTwice() {
    for (int i = 0; i < 4; i++) {
      h.provider.fails(providerError(ProviderErrorKind.SERVER_ERROR, 503, null, "unavailable " + i));
    }
    String a1 = h.routeFailing(inActivity("5", 1)).entryId();
    String a1again = h.routeFailing(inActivity("5", 1)).entryId();
    String a2 = h.routeFailing(inActivity("5", 2)).entryId();
    String a2again = h.routeFailing(inActivity("5", 2)).entryId();

    assertEquals(a1, a1again);
    assertEquals(a2, a2again);
    assertNotEquals(a1, a2);
    assertEquals(List.of(1, 2), h.exchanges().stream().map(e -> e.meta("attempt").asInt()).toList());
  }

  @Test
  void noDispatchEntriesAreWritten_theTemporalHistoryIsTheDispatchRecord() {
    h.provider.answers(reply("ok")).fails(providerError(ProviderErrorKind.TIMEOUT, 0, null, "read timed out"));
    h.route(inActivity("5", 1));
    h.routeFailing(inActivity("6", 1));
    h.route(inActivity("7", 1).maxTokens(0));

    assertEquals(List.of(), h.ledger.byEventType("DISPATCH"));
    assertEquals(Set.of(ExchangeRecords.EXCHANGE, ExchangeRecords.PROMPT_REJECTED),
        Set.copyOf(h.ledger.readAll().stream().map(LedgerEntry::eventType).toList()));
  }

  // ------------------------------------------------------------------ output validation

  @Test
  void structuredOutputMissingARequiredField_isMarkedInvalid_andStillReturned() {
    h.provider.answers(reply("{\"answer\":\"two packages\"}"));
    PromptResponse r = h.route(structured());

    assertEquals(RouteOutcome.SUCCESS, r.outcome());
    assertEquals("{\"answer\":\"two packages\"}", r.text());
    assertEquals(Boolean.FALSE, r.outputValid());
    assertEquals(List.of("missing required property 'response_text'"), r.outputValidationErrors());
    ObjectNode m = h.onlyExchange();
    assertFalse(m.get("output_valid").asBoolean());
    assertEquals(Json.tree(r.outputValidationErrors()), m.get("output_errors"));
  }

  @Test
  void structuredOutputThatIsNotJson_isMarkedInvalid_andTheExchangeIsStillRecorded() {
    h.provider.answers(reply("Sure! Two packages are installed."));
    PromptResponse r = h.route(structured());

    assertEquals(RouteOutcome.SUCCESS, r.outcome());
    assertEquals(Boolean.FALSE, r.outputValid());
    assertTrue(r.outputValidationErrors().get(0).contains("not valid JSON"), r.outputValidationErrors().toString());
    assertFalse(h.onlyExchange().get("output_valid").asBoolean());
    assertEquals("Sure! Two packages are installed.", h.onlyExchange().get("response").asText());
  }

  @Test
  void structuredOutputWithTheRequiredFields_isMarkedValid() {
    h.provider.answers(reply("{\"response_text\":\"Two packages.\"}"));
    PromptResponse r = h.route(structured());

    assertEquals(Boolean.TRUE, r.outputValid());
    assertTrue(h.onlyExchange().get("output_valid").asBoolean());
    assertFalse(h.onlyExchange().has("output_errors"));
  }

  @Test
  void toolUseResponse_isStoredAsBlocks_andNotOutputValidated() {
    List<ContentBlock> blocks = List.of(ContentBlock.text("Let me look."),
        ContentBlock.toolUse("toolu_01", "list_packages", Json.object().put("filter", "installed")));
    h.provider.answers(new ProviderReply(blocks, IN, OUT, MODEL, "tool_use"));
    PromptResponse r = h.route(structured());

    assertNull(r.outputValid(), "a tool call is not the contract's output");
    ObjectNode m = h.onlyExchange();
    assertFalse(m.has("output_valid"));
    assertEquals(Json.tree(blocks), m.get("response_blocks"));
    assertEquals("Let me look.", m.get("response").asText());
    assertEquals("tool_use", m.get("finish_reason").asText());
  }

  @Test
  void replayedToolUseExchange_returnsTheSameBlocks() {
    List<ContentBlock> blocks =
        List.of(ContentBlock.toolUse("toolu_01", "read_file", Json.object().put("path", "README.md")));
    h.provider.answers(new ProviderReply(blocks, IN, OUT, MODEL, "tool_use"));
    PromptResponse first = h.route(inActivity("9", 1));
    PromptResponse retry = h.route(inActivity("9", 2));

    assertTrue(retry.replayed());
    assertEquals(first.content(), retry.content());
    assertEquals(blocks, retry.toolUses());
  }

  // ------------------------------------------------------------------ response fields

  @Test
  void entryIds_lookLikeLedgerIds_andNameTheRecordOfTheRoundTrip() {
    h.provider.answers(reply("ok")).fails(providerError(ProviderErrorKind.SERVER_ERROR, 500, null, "internal"));
    String success = h.route(request()).exchangeEntryId();
    String failure = h.routeFailing(inActivity("3", 1)).entryId();
    String rejection = h.route(request().maxTokens(0)).exchangeEntryId();

    for (String id : List.of(success, failure, rejection)) {
      assertTrue(LEDGER_ID.matcher(id).matches(), id);
    }
    assertEquals(ExchangeRecords.EXCHANGE, h.ledger.byId(success).orElseThrow().eventType());
    assertEquals(ExchangeRecords.EXCHANGE, h.ledger.byId(failure).orElseThrow().eventType());
    assertEquals(ExchangeRecords.PROMPT_REJECTED, h.ledger.byId(rejection).orElseThrow().eventType());
  }

  @Test
  void cost_isPricedFromTheGatewayConfig() {
    h.provider.answers(reply("ok"));
    PromptResponse r = h.route(request());

    double expected = (IN * PRICE.inputPerMillion() + OUT * PRICE.outputPerMillion()) / 1_000_000.0;
    assertEquals(expected, r.cost(), 1e-12);
    assertEquals(expected, h.onlyExchange().get("cost").asDouble(), 1e-12);
  }

  // ------------------------------------------------------------------ end to end, offline

  @Test
  void offlineProvider_classifyRoundTrip_recordsOneExchangeWhoseResponseHasASpeechAct() {
    Gateway offline = h.gatewayWith(new OfflineProvider());
    PromptRequest classify = OfflineRequests.request(OfflineRequests.CLASSIFY, OfflineRequests.input("hello"),
        List.of()).agentId(AGENT).structuredOutput(true).build();

    PromptResponse r = offline.route(classify);

    assertEquals(RouteOutcome.SUCCESS, r.outcome());
    assertEquals(Boolean.TRUE, r.outputValid());
    ObjectNode m = h.onlyExchange();
    assertEquals("PRC-CLASSIFY-001", m.get("contract_id").asText());
    assertEquals(OfflineProvider.MODEL_ID, m.get("model_id").asText());
    assertEquals("greeting", Json.parse(m.get("response").asText()).get("speech_act").asText());
    String asked = m.get("prompt").get("messages").get(0).get("content").get(0).get("text").asText();
    assertTrue(asked.contains("<input>{\"user_input\":\"hello\"}</input>"), asked);
    assertEquals(0.0, r.cost(), "offline is free");
  }
}
