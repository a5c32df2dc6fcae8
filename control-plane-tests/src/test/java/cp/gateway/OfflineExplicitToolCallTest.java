package cp.gateway;

import static cp.gateway.OfflineRequests.SYNTHESIZE;
import static cp.gateway.OfflineRequests.json;
import static cp.gateway.OfflineRequests.request;
import static cp.gateway.OfflineRequests.synthesizeInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 item 5: the offline model calls any tool it is offered when the user writes
 * {@code call <tool> {json}}, with the arguments checked against the tool's schema, and answers
 * in plain words when the form does not parse, names no offered tool or breaks the schema.
 */
class OfflineExplicitToolCallTest {
  static final ToolDefinition WRITE_FILE = new ToolDefinition("write_file", "Write one text file", Json.parse("""
      {"type":"object","required":["path","content"],"additionalProperties":false,"properties":{
        "path":{"type":"string"},"content":{"type":"string"},
        "mode":{"type":"string","enum":["create","overwrite","append"]}}}"""));
  static final ToolDefinition LIST_PACKAGES = new ToolDefinition("list_packages", "List packages", null);
  /** A tool named as MCP servers name theirs (a hyphen) behind a server prefix. */
  static final ToolDefinition MCP_SUM = new ToolDefinition("everything_get-sum", "Adds two numbers", Json.parse("""
      {"type":"object","required":["a","b"],"properties":{"a":{"type":"number"},"b":{"type":"number"}}}"""));
  static final List<ToolDefinition> OFFERED = List.of(WRITE_FILE, LIST_PACKAGES, MCP_SUM);

  private final OfflineProvider provider = new OfflineProvider(new cp.contracts.SchemaValidator()::validate);

  private ProviderReply synthesize(String userInput) {
    return provider.send(request(SYNTHESIZE, synthesizeInput(userInput, "command"), OFFERED).build());
  }

  private static List<ContentBlock> toolUses(ProviderReply reply) {
    List<ContentBlock> uses = new ArrayList<>();
    reply.content().stream().filter(ContentBlock::isToolUse).forEach(uses::add);
    return uses;
  }

  private String answer(String userInput) {
    ProviderReply reply = synthesize(userInput);
    assertEquals(List.of(), toolUses(reply), "no tool is called");
    return json(reply).get("response_text").asText();
  }

  @Test
  void callWriteFile_withJsonArguments_isAToolUseWithExactlyThoseArguments() {
    ProviderReply reply = synthesize("call write_file {\"path\": \"HO2/notes.txt\", \"content\": \"hi\"}");

    List<ContentBlock> uses = toolUses(reply);
    assertEquals(1, uses.size(), reply::toString);
    assertEquals("write_file", uses.get(0).name());
    assertEquals(Json.parse("{\"path\":\"HO2/notes.txt\",\"content\":\"hi\"}"), uses.get(0).input());
    assertEquals(ProviderReply.TOOL_USE, reply.finishReason());
  }

  @Test
  void anyOfferedTool_evenOneWithAHyphen_andSeveralCallsInOneMessage() {
    ProviderReply reply = synthesize("please call everything_get-sum {\"a\": 2, \"b\": 3} and then CALL list_packages");

    List<ContentBlock> uses = toolUses(reply);
    assertEquals(List.of("everything_get-sum", "list_packages"), uses.stream().map(ContentBlock::name).toList());
    assertEquals(Json.parse("{\"a\":2,\"b\":3}"), uses.get(0).input());
    assertEquals(Json.object(), uses.get(1).input());
  }

  @Test
  void argumentsThatDoNotParse_areAnsweredInWords_namingTheToolAndAnExample() {
    String text = answer("call write_file {\"path\": \"HO2/notes.txt\", content: hi}");

    assertTrue(text.contains("not valid JSON"), text);
    assertTrue(text.contains("call write_file {\"path\":\"...\",\"content\":\"...\"}"), text);
    assertTrue(text.endsWith("(offline model)"), text);
  }

  @Test
  void argumentsThatBreakTheSchema_areAnsweredWithTheViolations() {
    String text = answer("call write_file {\"path\": \"HO2/notes.txt\", \"mode\": \"shred\"}");

    assertTrue(text.contains("do not fit its schema"), text);
    assertTrue(text.contains("content"), "the missing property is named: " + text);
    assertTrue(text.contains("shred") || text.contains("enum") || text.contains("mode"), text);
  }

  @Test
  void aToolThatIsNotOffered_isNamedWithTheToolsThatAre() {
    String text = answer("call delete_everything {\"really\": true}");

    assertTrue(text.contains("there is no tool 'delete_everything'"), text);
    assertTrue(text.contains("write_file, list_packages, everything_get-sum"), text);
  }

  @Test
  void argumentsThatAreNotAnObject_areRefused() {
    String text = answer("call write_file {\"path\": \"x\"} and call list_packages [1]");

    assertTrue(text.contains("do not fit its schema") || text.contains("must be a JSON object"), text);
  }

  @Test
  void callInOrdinaryProse_isNoToolCall() {
    ProviderReply reply = synthesize("please call me later when the packages are installed");

    assertTrue(toolUses(reply).stream().noneMatch(u -> u.name().equals("me")), reply::toString);
  }

  @Test
  void anExplicitCall_isTheOnlyCall_theKeywordRulesDoNotAddTheirs() {
    ProviderReply reply = synthesize("call write_file {\"path\": \"HO2/x.md\", \"content\": \"read README.md, list packages\"}");

    assertEquals(List.of("write_file"), toolUses(reply).stream().map(ContentBlock::name).toList());
  }

  @Test
  void onceTheToolHasAnswered_theModelSummarisesInsteadOfCallingAgain() {
    ProviderReply first = synthesize("call list_packages");
    var withResult = OfflineRequests.withResults(request(SYNTHESIZE, synthesizeInput("call list_packages", "command"),
        OFFERED).build(), first, List.of("contract PRC-X 1.0.0 contracts/x.json abc"), false);

    ProviderReply second = provider.send(withResult);

    assertEquals(List.of(), toolUses(second));
    assertTrue(json(second).get("response_text").asText().endsWith("(offline model)"));
  }

  @Test
  void theSameWordsAlwaysGiveTheSameCall() {
    String words = "call write_file {\"path\": \"HO2/a.txt\", \"content\": \"x\"}";

    assertEquals(synthesize(words).content(), synthesize(words).content());
  }
}
