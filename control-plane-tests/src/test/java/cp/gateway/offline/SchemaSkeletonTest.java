package cp.gateway.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import org.junit.jupiter.api.Test;

class SchemaSkeletonTest {
  @Test
  void requiredPropertiesGetTypedPlaceholders() {
    JsonNode schema = Json.parse("""
        {"type":"object","required":["s","e","n","b","a","o","c"],"properties":{
          "s":{"type":"string"},"e":{"enum":["x","y"]},"n":{"type":"number"},"b":{"type":"boolean"},
          "a":{"type":"array","items":{"type":"integer"},"minItems":2},
          "o":{"type":"object","required":["inner"],"properties":{"inner":{"type":"string","maxLength":3}}},
          "c":{"const":42},"unrequired":{"type":"string"}}}""");
    assertEquals(Json.parse("""
        {"s":"offline","e":"x","n":0.0,"b":false,"a":[0,0],"o":{"inner":"off"},"c":42}"""),
        SchemaSkeleton.of(schema));
  }

  @Test
  void fillRequired_addsOnlyWhatIsMissing() {
    JsonNode schema = Json.parse("""
        {"type":"object","required":["response_text","confidence"],"properties":{
          "confidence":{"type":"string","enum":["low","high"]}}}""");
    ObjectNode out = SchemaSkeleton.fillRequired(Json.object().put("response_text", "kept"), schema);
    assertEquals(Json.parse("{\"response_text\":\"kept\",\"confidence\":\"low\"}"), out);
  }

  @Test
  void selfReferencingSchema_stopsAtTheDepthLimit() {
    ObjectNode schema = Json.object().put("type", "object");
    schema.putArray("required").add("next");
    ObjectNode node = schema;
    for (int i = 0; i < 40; i++) {
      ObjectNode child = Json.object().put("type", "object");
      child.putArray("required").add("next");
      node.putObject("properties").set("next", child);
      node = child;
    }
    assertTrue(SchemaSkeleton.of(schema).isObject());
  }
}
