package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContentBlockJsonTest {
  @Test
  void textBlock_roundTripsItsTextNotABoolean() throws Exception {
    ContentBlock block = ContentBlock.text("hello there");
    JsonNode json = Json.tree(block);
    assertEquals("hello there", json.get("text").asText());
    assertFalse(json.has("tool_use"), json.toString());
    assertEquals(block, Json.MAPPER.readValue(Json.write(block), ContentBlock.class));
  }

  @Test
  void toolBlocks_roundTripWithSnakeCaseFields() throws Exception {
    ContentBlock use = ContentBlock.toolUse("toolu_1", "read_file", Json.object().put("path", "README.md"));
    ContentBlock result = ContentBlock.toolResult("toolu_1", "# Title", true);
    assertEquals("{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"# Title\",\"is_error\":true}",
        Json.write(result));
    Message m = new Message(Message.ASSISTANT, List.of(use));
    assertEquals(m, Json.MAPPER.readValue(Json.write(m), Message.class));
    assertEquals(result, Json.MAPPER.readValue(Json.write(result), ContentBlock.class));
  }
}
