package cp.gateway;

import static cp.gateway.OfflineRequests.CLASSIFY;
import static cp.gateway.OfflineRequests.DEGRADED;
import static cp.gateway.OfflineRequests.EXECUTE;
import static cp.gateway.OfflineRequests.SYNTHESIZE;
import static cp.gateway.OfflineRequests.adminTools;
import static cp.gateway.OfflineRequests.input;
import static cp.gateway.OfflineRequests.json;
import static cp.gateway.OfflineRequests.only;
import static cp.gateway.OfflineRequests.request;
import static cp.gateway.OfflineRequests.synthesizeInput;
import static cp.gateway.OfflineRequests.text;
import static cp.gateway.OfflineRequests.violations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OfflineProviderTest {
  private final OfflineProvider provider = new OfflineProvider();

  private ProviderReply send(PromptRequest request) {
    return provider.send(request);
  }

  private ProviderReply synthesize(String userInput, String speechAct, List<cp.model.ToolDefinition> tools) {
    return send(request(SYNTHESIZE, synthesizeInput(userInput, speechAct), tools).build());
  }

  @Test
  void identifiesItselfAsOffline() {
    ProviderReply reply = send(request(CLASSIFY, input("hello"), List.of()).build());
    assertEquals("offline", provider.id());
    assertEquals("offline-rules-1", reply.modelId());
  }

  // ---- classify ----

  @Test
  void classify_repliesWithOnlyAJsonObjectOfTheFourFields() {
    ProviderReply reply = send(request(CLASSIFY, input("what packages are installed?"), List.of()).build());
    JsonNode out = json(reply);
    assertEquals(List.of(), violations(OfflineRequests.CLASSIFY_SCHEMA, out));
    assertEquals("question", out.get("speech_act").asText());
    assertEquals("low", out.get("ambiguity").asText());
    assertEquals("list_packages", out.get("intent").asText());
    assertTrue(out.get("needs_tools").asBoolean());
    assertEquals(4, out.size());
    assertEquals("stop", reply.finishReason());
  }

  @Test
  void classify_withoutInputTags_takesTheWholeUserTextAsUserInput() {
    PromptRequest r = request(CLASSIFY, input("ignored"), List.of()).messages(List.of(Message.user("  bye  "))).build();
    assertEquals("farewell", json(send(r)).get("speech_act").asText());
  }

  @Test
  void classify_readsTheLastInputBlock() {
    String text = "Example: <input>{\"user_input\":\"hello\"}</input>\nNow yours: <input>{\"user_input\":\"read README.md\"}</input>";
    PromptRequest r = request(CLASSIFY, input("ignored"), List.of()).messages(List.of(Message.user(text))).build();
    assertEquals("command", json(send(r)).get("speech_act").asText());
  }

  // ---- every contract family gives output its schema accepts ----

  @ParameterizedTest
  @ValueSource(strings = {CLASSIFY, SYNTHESIZE, EXECUTE})
  void jsonContracts_produceOutputTheirSchemaAccepts(String contract) {
    for (String utterance : List.of("hello", "what packages are installed?", "bye", "I'm back", "why?", "")) {
      ObjectNode in = synthesizeInput(utterance, "question");
      ProviderReply reply = send(request(contract, in, List.of()).build());
      assertEquals(List.of(), violations(OfflineRequests.schemaFor(contract), json(reply)), contract + " / " + utterance);
    }
  }

  @Test
  void execute_repliesWithAResultThatEchoesTheInstruction() {
    JsonNode out = json(send(request(EXECUTE, input("rotate the logs"), List.of()).build()));
    assertTrue(out.get("result").asText().contains("rotate the logs"), out.toString());
  }

  @Test
  void degraded_isPlainTextThatSaysItIsInReducedMode() {
    ProviderReply reply = send(request(DEGRADED, input("what packages are installed?"), adminTools()).build());
    String text = text(reply);
    assertFalse(isJsonObject(text), text);
    assertTrue(text.contains("reduced mode"), text);
    assertTrue(text.contains("what packages are installed?"), text);
    assertTrue(reply.content().stream().noneMatch(ContentBlock::isToolUse));
  }

  private static boolean isJsonObject(String text) {
    try {
      return Json.parse(text).isObject();
    } catch (IllegalArgumentException notJson) {
      return false;
    }
  }

  @Test
  void unknownContract_withOutputSchema_getsASchemaSatisfyingObject() {
    JsonNode schema = Json.parse("""
        {"type":"object","required":["verdict","score","ok","tags","detail","note"],"properties":{
          "verdict":{"type":"string","enum":["accept","reject"]},
          "score":{"type":"integer","minimum":1},
          "ok":{"type":"boolean"},
          "tags":{"type":"array","items":{"type":"string"}},
          "detail":{"type":"object","required":["why"],"properties":{"why":{"type":"string","minLength":10}}},
          "note":{"type":["string","null"]},
          "optional":{"type":"string"}}}""");
    PromptRequest r = request("PRC-REVIEW-001", input("judge this"), List.of()).outputSchema(schema).build();
    JsonNode out = json(send(r));
    assertEquals(List.of(), violations(schema, out));
    assertEquals("accept", out.get("verdict").asText());
    assertEquals(1, out.get("score").asInt());
    assertFalse(out.get("ok").asBoolean());
    assertFalse(out.has("optional"));
  }

  @Test
  void unknownContract_withoutSchema_isPlainText() {
    ProviderReply reply = send(request("PRC-CHAT-001", input("hi"), List.of()).build());
    assertTrue(text(reply).contains("offline"), text(reply));
    assertEquals("stop", reply.finishReason());
  }

  @Test
  void knownContract_getsExtraRequiredFieldsItsSchemaAsksFor() {
    JsonNode schema = Json.parse("""
        {"type":"object","required":["response_text","confidence"],"properties":{
          "response_text":{"type":"string"},"confidence":{"type":"string","enum":["low","high"]}}}""");
    PromptRequest r = request(SYNTHESIZE, synthesizeInput("hello", "greeting"), List.of()).outputSchema(schema).build();
    JsonNode out = json(send(r));
    assertEquals(List.of(), violations(schema, out));
    assertTrue(out.get("response_text").asText().startsWith("Hello!"));
  }

  // ---- synthesize without tools ----

  @Test
  void synthesizeGreeting_offersHelpAndNamesTheOfferedTools() {
    String text = json(synthesize("hello", "greeting", only("list_packages", "read_file"))).get("response_text").asText();
    assertTrue(text.startsWith("Hello!"), text);
    assertTrue(text.contains("list_packages") && text.contains("read_file"), text);
    assertFalse(text.contains("gate_check"), text);
    assertTrue(text.endsWith("(offline model)"), text);
    assertFalse(text.toLowerCase().contains("as an ai"), text);
  }

  @Test
  void synthesizeUsesTheClassificationFromPriorResults() {
    // the words are a question, but the classify WO said farewell: its word wins
    String text = json(synthesize("are we done here", "farewell", adminTools())).get("response_text").asText();
    assertTrue(text.startsWith("Goodbye!"), text);
  }

  // Issue 11 item 7: an honest "I am the offline model; I can do X, Y, Z", not attention's internals.
  @Test
  void synthesizeQuestion_echoesIt_saysWhatTheOfflineModelCanDo_andHowManyTurnsItHas() {
    ObjectNode in = synthesizeInput("why is the sky blue?", "question");
    in.putObject("assembled_context").put("text", "## session_conversation\n[turn 1] User: about HO2 budgets\n"
        + "[turn 1] Assistant: they nest\n[turn 2] User: hello\n[turn 2] Assistant: hi\n## recent_ho2_events (ho2)\n- x")
        .put("fragment_count", 5);
    String text = json(send(request(SYNTHESIZE, in, adminTools()).build())).get("response_text").asText();
    assertTrue(text.startsWith("You asked: \"why is the sky blue?\".\nI am the offline model"), text);
    assertTrue(text.contains("cannot"), text);
    assertTrue(text.contains("\n- list the installed packages: \"what packages are installed?\""), text);
    assertTrue(text.contains("\n- check the integrity gates: \"check the gates\""), text);
    assertTrue(text.contains("I have this session's last 2 turns in context."), text);
    assertFalse(text.contains("fragment") || text.contains("##"), text);
  }

  @Test
  void synthesizeRetry_keepsTheAnswerNonEmptyAndUnderTheAcceptanceLimit() {
    int limit = 120;
    ObjectNode in = synthesizeInput("tell me everything about the architecture of this system", "command");
    in.putObject("assembled_context").put("text", "a long fragment ".repeat(20)).put("fragment_count", 7);
    in.put("retry_feedback", "response_text too long");
    in.putObject("acceptance_criteria").put("max_response_chars", limit);
    String text = json(send(request(SYNTHESIZE, in, adminTools()).build())).get("response_text").asText();
    assertFalse(text.isBlank());
    assertTrue(text.length() <= limit, text.length() + ": " + text);
    assertTrue(text.endsWith("(offline model)"), text);
  }

  // ---- synthesize with tools ----

  private static void assertSingleToolUse(ProviderReply reply, String tool, String argumentsJson) {
    assertEquals("tool_use", reply.finishReason());
    List<ContentBlock> uses = reply.content().stream().filter(ContentBlock::isToolUse).toList();
    assertEquals(1, uses.size(), reply.content().toString());
    assertEquals(tool, uses.get(0).name());
    assertEquals(Json.parse(argumentsJson), uses.get(0).input());
    assertTrue(uses.get(0).id().startsWith("toolu_offline_"), uses.get(0).id());
  }

  @Test
  void packagesQuestion_callsListPackages() {
    assertSingleToolUse(synthesize("what packages are installed?", "question", adminTools()), "list_packages", "{}");
  }

  @Test
  void readCommand_callsReadFileWithThePath() {
    assertSingleToolUse(synthesize("read README.md", "command", adminTools()), "read_file", "{\"path\":\"README.md\"}");
    assertSingleToolUse(synthesize("show me the file HOT/x.json", "command", adminTools()),
        "read_file", "{\"path\":\"HOT/x.json\"}");
  }

  @Test
  void gatesQuestion_callsGateCheckForAllGates() {
    assertSingleToolUse(synthesize("are all gates passing?", "question", adminTools()), "gate_check", "{\"gate\":\"all\"}");
    assertSingleToolUse(synthesize("check the gates", "command", adminTools()), "gate_check", "{\"gate\":\"all\"}");
  }

  @Test
  void recentExchanges_callsQueryLedgerOnTheHotTier() {
    String args = "{\"tier\":\"hot\",\"event_type\":\"EXCHANGE\",\"max_entries\":5}";
    assertSingleToolUse(synthesize("show the last exchanges", "command", adminTools()), "query_ledger", args);
    assertSingleToolUse(synthesize("what happened?", "question", adminTools()), "query_ledger", args);
  }

  @Test
  void triggeredToolThatIsNotOffered_isNotCalled() {
    ProviderReply reply = synthesize("what packages are installed?", "question", only("read_file", "gate_check"));
    assertEquals("stop", reply.finishReason());
    assertTrue(reply.content().stream().noneMatch(ContentBlock::isToolUse));
    assertTrue(json(reply).get("response_text").asText().contains("what packages are installed?"));
  }

  @Test
  void toolUseIds_areDeterministicAndDistinctPerTool() {
    ProviderReply a = synthesize("list packages and check the gates", "command", adminTools());
    ProviderReply b = synthesize("list packages and check the gates", "command", adminTools());
    assertEquals(a, b);
    List<String> ids = a.content().stream().map(ContentBlock::id).toList();
    assertEquals(2, ids.size());
    assertNotEquals(ids.get(0), ids.get(1));
  }

  @Test
  void toolUseIds_differBetweenConversations() {
    String a = synthesize("list packages", "command", adminTools()).content().get(0).id();
    String b = synthesize("what packages are installed?", "question", adminTools()).content().get(0).id();
    assertNotEquals(a, b);
  }

  // ---- after tool results ----

  private ProviderReply followUp(String userInput, List<String> contents, boolean error) {
    PromptRequest first = request(SYNTHESIZE, synthesizeInput(userInput, "question"), adminTools()).build();
    ProviderReply toolReply = send(first);
    assertEquals("tool_use", toolReply.finishReason());
    return send(OfflineRequests.withResults(first, toolReply, contents, error));
  }

  @Test
  void afterListPackagesResult_answersWithTheCountAndTheNames() {
    String result = "[{\"package_id\":\"PKG-KERNEL-001\",\"version\":\"1.0.0\"},"
        + "{\"package_id\":\"PKG-ZEBRA-042\",\"version\":\"2.1.0\"}]";
    ProviderReply reply = followUp("what packages are installed?", List.of(result), false);
    String text = json(reply).get("response_text").asText();
    assertEquals("stop", reply.finishReason());
    assertTrue(text.contains("2 packages"), text);
    assertTrue(text.contains("PKG-ZEBRA-042"), text);
  }

  @Test
  void afterReadFileResult_quotesTheFirstLinesAndCountsThem() {
    String file = "# Control Plane\nThe quick brown fox 7f3a9\n\nline four\nline five\n";
    String text = json(followUp("read README.md", List.of(file), false)).get("response_text").asText();
    assertTrue(text.contains("README.md has 5 lines"), text);
    assertTrue(text.contains("The quick brown fox 7f3a9"), text);
    assertFalse(text.contains("line five"), text);
  }

  @Test
  void afterGateCheckResult_reportsPassAndFailLines() {
    String result = "G0A PASS all files owned\nG1 FAIL chain broken at PKG-FOO-009\nG2 PASS\n";
    String text = json(followUp("are all gates passing?", List.of(result), false)).get("response_text").asText();
    assertTrue(text.contains("2 PASS, 1 FAIL"), text);
    assertTrue(text.contains("G1 FAIL chain broken at PKG-FOO-009"), text);
  }

  @Test
  void afterLedgerResult_countsTheEntries() {
    String result = "{\"entries\":[{\"entry_id\":\"LED-aa11\",\"event_type\":\"EXCHANGE\"},"
        + "{\"entry_id\":\"LED-bb22\",\"event_type\":\"EXCHANGE\"}]}";
    String text = json(followUp("show the last exchanges", List.of(result), false)).get("response_text").asText();
    assertTrue(text.contains("2 entries"), text);
    assertTrue(text.contains("LED-bb22"), text);
  }

  @Test
  void afterErrorResult_reportsTheErrorHonestly() {
    String text = json(followUp("read HOT/secret.txt", List.of("permission denied: HOT/secret.txt is forbidden"), true))
        .get("response_text").asText();
    assertTrue(text.startsWith("I could not read HOT/secret.txt: permission denied"), text);
  }

  @Test
  void afterResult_doesNotCallTheSameToolAgain() {
    ProviderReply reply = followUp("what packages are installed?", List.of("PKG-A\nPKG-B"), false);
    assertTrue(reply.content().stream().noneMatch(ContentBlock::isToolUse));
  }

  @Test
  void afterTwoToolResults_summarisesBoth() {
    PromptRequest first = request(SYNTHESIZE, synthesizeInput("list packages and check the gates", "command"), adminTools())
        .build();
    ProviderReply tools = send(first);
    ProviderReply reply = send(OfflineRequests.withResults(first, tools,
        List.of("PKG-ALPHA-001 1.0.0\nPKG-BETA-002 1.2.0", "G0 PASS\nG1 PASS"), false));
    String text = json(reply).get("response_text").asText();
    assertTrue(text.contains("PKG-BETA-002"), text);
    assertTrue(text.contains("2 PASS, 0 FAIL, all passing"), text);
  }

  // ---- determinism, tokens, limits ----

  @Test
  void sameRequestTwice_givesEqualReplies() {
    for (String contract : List.of(CLASSIFY, SYNTHESIZE, EXECUTE, DEGRADED, "PRC-OTHER-001")) {
      ObjectNode in = synthesizeInput("what packages are installed?", "question");
      in.putObject("assembled_context").put("text", "fragment").put("fragment_count", 1);
      assertEquals(send(request(contract, in, adminTools()).build()), send(request(contract, in, adminTools()).build()),
          contract);
    }
  }

  @Test
  void tokenUsage_isCharactersOverFourRoundedUp() {
    PromptRequest r = request(CLASSIFY, input("hello"), List.of()).system("S".repeat(9))
        .messages(List.of(Message.user("U".repeat(10)))).build();
    ProviderReply reply = send(r);
    assertEquals(5, reply.inputTokens()); // ceil(19 / 4)
    assertEquals((text(reply).length() + 3) / 4, reply.outputTokens());
  }

  @Test
  void inputTokens_growWithToolDefinitions() {
    long without = send(request(CLASSIFY, input("hello"), List.of()).build()).inputTokens();
    long with = send(request(CLASSIFY, input("hello"), adminTools()).build()).inputTokens();
    assertTrue(with > without, with + " > " + without);
  }

  @Test
  void maxTokensExceeded_cutsInsideTheStringAndKeepsJsonValid() {
    ObjectNode in = synthesizeInput("explain \"quoted\" things\nwith newlines", "question");
    in.putObject("assembled_context").put("text", "x \"y\" \\ z\n".repeat(50)).put("fragment_count", 50);
    int maxTokens = 20;
    ProviderReply reply = send(request(SYNTHESIZE, in, adminTools()).maxTokens(maxTokens).build());
    assertEquals("length", reply.finishReason());
    JsonNode out = json(reply);
    assertEquals(List.of(), violations(OfflineRequests.SYNTHESIZE_SCHEMA, out));
    assertTrue(text(reply).length() <= maxTokens * 4, text(reply));
    assertTrue(reply.outputTokens() <= maxTokens);
    assertTrue(out.get("response_text").asText().endsWith("\u2026"));
  }

  @Test
  void maxTokensExceeded_cutsPlainTextToo() {
    ProviderReply reply = send(request(DEGRADED, input("hello there"), List.of()).maxTokens(5).build());
    assertEquals("length", reply.finishReason());
    assertTrue(text(reply).length() <= 20, text(reply));
  }
}
