package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PromptRendererTest {
  private final PromptRenderer renderer = new PromptRenderer();
  private final Catalog catalog = Catalog.loadDefault();

  private static PromptPack pack(String system, String user, String... variables) {
    return new PromptPack("PRM-TEST-001", "1.0.0", "test", system, user, List.of(variables));
  }

  @Test
  void declaredVariables_renderStringsRawAndOtherValuesAsCompactJson() {
    PromptPack pack = pack("Agent: {{agent_class}}", "Q: {{user_input}} | C: {{classification}} | N: {{count}}",
        "agent_class", "user_input", "classification", "count");
    JsonNode input = Json.parse("""
        {"agent_class": "ADMIN", "user_input": "say \\"hi\\"\\nplease",
         "classification": {"speech_act": "greeting", "ambiguity": "low"}, "count": 3}
        """);

    RenderedPrompt p = renderer.render(pack, input, null);

    assertEquals("Agent: ADMIN", p.system());
    assertEquals("Q: say \"hi\"\nplease | C: {\"speech_act\":\"greeting\",\"ambiguity\":\"low\"} | N: 3", p.user());
  }

  @Test
  void declaredVariableMissingFromTheInput_rendersEmpty() {
    PromptPack pack = pack("[{{agent_class}}]", "[{{user_input}}]", "agent_class", "user_input");

    RenderedPrompt p = renderer.render(pack, Json.parse("{\"user_input\": null}"), null);

    assertEquals("[]", p.system());
    assertEquals("[]", p.user());
  }

  @Test
  void inputJson_isThePrettyInputBetweenTheInputTags_andReadsBack() {
    JsonNode input = Json.parse("{\"user_input\": \"what packages are installed?\", \"prior_results\": []}");

    RenderedPrompt p = renderer.render(catalog.promptPack("PRM-SYNTHESIZE-001"), input, catalog.agent("ADMIN"));

    assertTrue(p.user().contains("<input>\n" + Json.pretty(input) + "\n</input>"), p.user());
    assertEquals(input, Json.parse(PromptRenderer.extractInputJson(p.user())));
  }

  @Test
  void agentSystemPrompt_isTheAgentsPromptOrEmptyWithoutAgent() {
    PromptPack classify = catalog.promptPack("PRM-CLASSIFY-001");
    AgentConfig admin = catalog.agent("ADMIN");
    JsonNode input = Json.parse("{\"user_input\": \"hi\"}");

    assertTrue(renderer.render(classify, input, admin).system().startsWith(admin.systemPrompt() + "\n\n## This step"));
    assertTrue(renderer.render(classify, input, null).system().startsWith("\n\n## This step"));
  }

  @Test
  void valueContainingAPlaceholder_isNotExpandedAgain() {
    PromptPack pack = pack("s", "{{user_input}} / {{agent_class}}", "user_input", "agent_class");

    RenderedPrompt p = renderer.render(pack, Json.parse("{\"user_input\": \"{{agent_class}} $1 \\\\\", \"agent_class\": \"X\"}"), null);

    assertEquals("{{agent_class}} $1 \\ / X", p.user());
  }

  @Test
  void undeclaredVariableInAHandBuiltPack_isRefusedAtRenderTime() {
    PromptPack pack = pack("s", "{{secret}}");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> renderer.render(pack, Json.parse("{\"secret\": \"x\"}"), null));
    assertTrue(e.getMessage().contains("{{secret}}"), e.getMessage());
  }

  @Test
  void degradedPack_rendersTheUserInputRawAndTheAgentClass() {
    RenderedPrompt p = renderer.render(catalog.promptPack("PRM-DEGRADED-001"),
        Json.parse("{\"user_input\": \"are the gates green?\", \"agent_class\": \"ADMIN\"}"), catalog.agent("ADMIN"));

    assertEquals("are the gates green?", p.user());
    assertTrue(p.system().contains("You are answering as the ADMIN agent"), p.system());
  }

  @Test
  void placeholders_areFoundInOrderAndMalformedOnesRefused() {
    assertEquals(Set.of("a", "b_2"), PromptTemplate.placeholders("{{a}} {{ b_2 }} {{a}} {single} }}"));
    assertEquals(List.of("a", "b_2"), List.copyOf(PromptTemplate.placeholders("{{a}} {{ b_2 }}")));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PromptTemplate.placeholders("x {{Name}}"));
    assertTrue(e.getMessage().startsWith("malformed placeholder at offset 2: '{{Name}}'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PromptTemplate.placeholders("unclosed {{a"));
  }

  @Test
  void extractInputJson_ignoresTagsTypedByTheUser() {
    JsonNode input = Json.parse("{\"user_input\": \"what do <input> and </input> mean? {{x}}\"}");
    RenderedPrompt p = renderer.render(catalog.promptPack("PRM-CLASSIFY-001"), input, null);

    assertEquals(input, Json.parse(PromptRenderer.extractInputJson(p.user())));
  }

  @Test
  void extractInputJson_ignoresManyTagsTypedByTheUser() {
    JsonNode input = Json.parse("{\"user_input\": \"" + "<input>[[[[1, ".repeat(5_000) + "\"}");
    RenderedPrompt p = renderer.render(catalog.promptPack("PRM-CLASSIFY-001"), input, null);

    assertEquals(input, Json.parse(PromptRenderer.extractInputJson(p.user())));
  }

  @Test
  void extractInputJson_usesTheLastBlock() {
    String text = "<input>{\"a\": 1}</input> then <input>\n{\"a\": 2}\n</input>\n";

    assertEquals("{\"a\": 2}", PromptRenderer.extractInputJson(text));
  }

  @Test
  void extractInputJson_withoutABlockOrWithoutJson_isAnIllegalArgument() {
    assertThrows(IllegalArgumentException.class, () -> PromptRenderer.extractInputJson("no tags here"));
    assertThrows(IllegalArgumentException.class, () -> PromptRenderer.extractInputJson("<input>not json</input>"));
  }

  @Test
  void parseModelJson_acceptsRawJson() {
    assertEquals(Json.parse("{\"speech_act\": \"greeting\", \"ambiguity\": \"low\"}"),
        PromptRenderer.parseModelJson("  {\"speech_act\": \"greeting\", \"ambiguity\": \"low\"}\n"));
  }

  @Test
  void parseModelJson_acceptsAJsonCodeFence() {
    String text = "Here you go:\n```json\n{\"response_text\": \"Hello! { not a brace }\"}\n```\nAnything else?";

    assertEquals("Hello! { not a brace }", PromptRenderer.parseModelJson(text).get("response_text").asText());
    assertEquals(1, PromptRenderer.parseModelJson("```\n{\"a\": 1}\n```").get("a").asInt());
  }

  @Test
  void parseModelJson_acceptsAnObjectWrappedInProse() {
    String text = "Sure, the classification is {\"speech_act\": \"question\", \"nested\": {\"x\": \"}\"}} -- hope that helps {";

    JsonNode parsed = PromptRenderer.parseModelJson(text);

    assertEquals("question", parsed.get("speech_act").asText());
    assertEquals("}", parsed.at("/nested/x").asText());
  }

  @Test
  void parseModelJson_skipsBracesThatAreNotJson() {
    assertEquals(2, PromptRenderer.parseModelJson("use {braces} like {\"a\": 2}").get("a").asInt());
  }

  @Test
  void parseModelJson_refusesTextWithoutJson() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PromptRenderer.parseModelJson("I think the user is greeting you."));
    assertTrue(e.getMessage().startsWith("model output is not JSON: "), e.getMessage());
    assertTrue(e.getMessage().contains("'I think the user is greeting you.'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PromptRenderer.parseModelJson("   "));
    assertThrows(IllegalArgumentException.class, () -> PromptRenderer.parseModelJson("{\"unterminated\": "));
    assertThrows(IllegalArgumentException.class, () -> PromptRenderer.parseModelJson("\"just a string\""));
  }
}
