package cp.tools.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToolDescriptorTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  record WeatherArgs(@ToolParam("City name") String city, Optional<String> unit) {}

  @Test
  void aNameMayHoldHyphens_andTheSchemaMayBeGivenAsText() {
    ToolDescriptor d = ToolDescriptor.of("get-weather", "Weather for a city.",
        "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}");

    assertEquals("get-weather", d.name());
    assertEquals("string", d.argumentsSchema().at("/properties/city/type").asText());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "get weather", "everything/echo", "wétter", "a.b",
      "x1234567890123456789012345678901234567890123456789012345678901234"})
  void aNameProvidersWouldRefuse_isRefusedSayingWhatIsAllowed(String name) {
    var e = assertThrows(IllegalArgumentException.class, () -> ToolDescriptor.of(name, "d", WeatherArgs.class));
    assertTrue(e.getMessage().contains("letters, digits, _ or -"), e.getMessage());
  }

  @Test
  void aBlankDescription_orASchemaThatIsNotAnObject_isRefusedNamingTheTool() {
    var blank = assertThrows(IllegalArgumentException.class, () -> ToolDescriptor.of("t", " ", WeatherArgs.class));
    assertTrue(blank.getMessage().contains("tool t has a blank description"), blank.getMessage());
    var array = assertThrows(IllegalArgumentException.class,
        () -> ToolDescriptor.of("t", "d", "{\"type\":\"array\"}"));
    assertTrue(array.getMessage().contains("schema of tool t must be a JSON Schema object"), array.getMessage());
    var text = assertThrows(IllegalArgumentException.class, () -> ToolDescriptor.of("t", "d", "{type: object"));
    assertTrue(text.getMessage().contains("schema of tool t is not valid JSON"), text.getMessage());
  }

  @Test
  void theDescriptorIsImmutable_aChangedSchemaTreeDoesNotReachIt() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ToolDescriptor d = new ToolDescriptor("t", "d", schema);

    schema.put("additionalProperties", true);
    ((ObjectNode) d.argumentsSchema()).put("type", "string");

    assertFalse(d.argumentsSchema().has("additionalProperties"));
    assertEquals("object", d.argumentsSchema().get("type").asText());
  }

  @Test
  void theCallContext_needsAnIdempotencyKey() {
    var e = assertThrows(IllegalArgumentException.class, () -> new ToolCallContext("SES-1", "A", "WO-1", " "));
    assertTrue(e.getMessage().contains("idempotencyKey"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ToolCallResult.error(""));
    assertTrue(ToolCallResult.error("no such city").isError());
    assertFalse(ToolCallResult.text("12 C").isError());
  }
}
