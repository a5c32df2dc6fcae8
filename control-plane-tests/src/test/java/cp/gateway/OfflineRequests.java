package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.Message;
import cp.model.PromptRequest;
import cp.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;

/** Requests and contract schemas shaped like the ones HO1 sends, for the offline provider's tests. */
final class OfflineRequests {
  static final String CLASSIFY = "PRC-CLASSIFY-001";
  static final String SYNTHESIZE = "PRC-SYNTHESIZE-001";
  static final String EXECUTE = "PRC-EXECUTE-001";
  static final String DEGRADED = "PRC-DEGRADED-001";

  /** The output schemas of the seed contracts (000, step 5). */
  static final JsonNode CLASSIFY_SCHEMA = Json.parse("""
      {"type":"object","required":["speech_act","ambiguity"],"properties":{
        "speech_act":{"type":"string","enum":["greeting","question","command","reentry_greeting","farewell"]},
        "ambiguity":{"type":"string","enum":["low","medium","high"]}},"additionalProperties":true}""");
  static final JsonNode SYNTHESIZE_SCHEMA = Json.parse("""
      {"type":"object","required":["response_text"],"properties":{
        "response_text":{"type":"string"}},"additionalProperties":true}""");
  static final JsonNode EXECUTE_SCHEMA = Json.parse("""
      {"type":"object","required":["result"],"properties":{"result":{"type":"string"}},"additionalProperties":true}""");

  private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private OfflineRequests() {}

  /** The four ADMIN tools (seed 003). */
  static List<ToolDefinition> adminTools() {
    return List.of(
        new ToolDefinition("gate_check", "Run governance gate checks and report results", null),
        new ToolDefinition("read_file", "Read a governed file and return its contents",
            Json.parse("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}")),
        new ToolDefinition("query_ledger", "Query the ledger", null),
        new ToolDefinition("list_packages", "List all installed packages", null));
  }

  static List<ToolDefinition> only(String... names) {
    List<String> wanted = List.of(names);
    return adminTools().stream().filter(t -> wanted.contains(t.name())).toList();
  }

  /** The first user message: an instruction, then the input context between tags. */
  static Message userMessage(ObjectNode input) {
    return Message.user("Follow the contract.\n<input>" + Json.write(input) + "</input>");
  }

  static ObjectNode input(String userInput) {
    return Json.object().put("user_input", userInput);
  }

  /** A synthesize input with the classify WO's output as prior result. */
  static ObjectNode synthesizeInput(String userInput, String speechAct) {
    ObjectNode in = input(userInput);
    in.putArray("prior_results").addObject().put("speech_act", speechAct).put("ambiguity", "low");
    return in;
  }

  static PromptRequest.Builder request(String contract, ObjectNode input, List<ToolDefinition> tools) {
    return PromptRequest.builder()
        .contractId(contract)
        .sessionId("SES-0000abcd")
        .workOrderId("WO-SES-0000abcd-001")
        .system("You are ADMIN.")
        .messages(List.of(userMessage(input)))
        .tools(tools)
        .maxTokens(4096)
        .outputSchema(schemaFor(contract));
  }

  static JsonNode schemaFor(String contract) {
    return switch (contract) {
      case CLASSIFY -> CLASSIFY_SCHEMA;
      case SYNTHESIZE -> SYNTHESIZE_SCHEMA;
      case EXECUTE -> EXECUTE_SCHEMA;
      default -> null;
    };
  }

  /** {@code request}'s conversation continued by its tool uses and one result per use. */
  static PromptRequest withResults(PromptRequest request, ProviderReply toolReply, List<String> contents, boolean error) {
    List<Message> messages = new ArrayList<>(request.messages());
    messages.add(new Message(Message.ASSISTANT, toolReply.content()));
    List<ContentBlock> results = new ArrayList<>();
    List<ContentBlock> uses = toolReply.content().stream().filter(ContentBlock::isToolUse).toList();
    for (int i = 0; i < uses.size(); i++) {
      results.add(ContentBlock.toolResult(uses.get(i).id(), contents.get(i), error));
    }
    messages.add(new Message(Message.USER, results));
    return request.toBuilder().messages(messages).build();
  }

  static String text(ProviderReply reply) {
    StringBuilder sb = new StringBuilder();
    reply.content().stream().filter(ContentBlock::isText).forEach(b -> sb.append(b.text()));
    return sb.toString();
  }

  static JsonNode json(ProviderReply reply) {
    return Json.parse(text(reply));
  }

  /** Schema violations of {@code value}; empty when it conforms. */
  static List<String> violations(JsonNode schema, JsonNode value) {
    Schema compiled = SCHEMAS.getSchema(schema);
    return compiled.validate(value).stream().map(Object::toString).toList();
  }
}
