package cp.tools.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArgumentSchemasTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  enum Unit { CELSIUS, FAHRENHEIT }

  record Place(String city, Optional<String> country) {}

  record Forecast(@ToolParam("Where") Place place, int days, Unit unit, List<String> fields,
      Map<String, Double> thresholds, @ToolParam(value = "free-form", required = false) JsonNode extra,
      boolean[] flags) {}

  record Loop(String name, List<Loop> children) {}

  record Odd(Thread thread) {}

  record Keyed(Map<Integer, String> byNumber) {}

  @Test
  void aRecord_becomesAStrictObjectSchema_requiringWhatIsNotOptional() throws Exception {
    JsonNode s = ArgumentSchemas.of(Forecast.class);

    assertEquals(JSON.readTree("""
        {"type":"object","properties":{
          "place":{"type":"object","properties":{"city":{"type":"string"},"country":{"type":"string"}},
                   "required":["city"],"additionalProperties":false,"description":"Where"},
          "days":{"type":"integer"},
          "unit":{"type":"string","enum":["CELSIUS","FAHRENHEIT"]},
          "fields":{"type":"array","items":{"type":"string"}},
          "thresholds":{"type":"object","additionalProperties":{"type":"number"}},
          "extra":{"description":"free-form"},
          "flags":{"type":"array","items":{"type":"boolean"}}},
         "required":["place","days","unit","fields","thresholds","flags"],
         "additionalProperties":false}"""), s);
  }

  @Test
  void theDerivedSchema_isAValidJsonSchema_thatRefusesUnknownKeys() throws Exception {
    var meta = SCHEMAS.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
    JsonNode s = ArgumentSchemas.of(Forecast.class);
    assertEquals(List.of(), meta.validate(s));

    var compiled = SCHEMAS.getSchema(s);
    JsonNode good = JSON.readTree("""
        {"place":{"city":"Lisbon"},"days":2,"unit":"CELSIUS","fields":["t"],"thresholds":{"t":1.5},"flags":[]}""");
    assertEquals(List.of(), compiled.validate(good));
    JsonNode extraKey = ((com.fasterxml.jackson.databind.node.ObjectNode) good.deepCopy()).put("secret", "x");
    assertEquals(1, compiled.validate(extraKey).size());
  }

  @Test
  void aTypedBinding_getsItsArgumentsAsTheRecord() throws Exception {
    ToolBinding b = ToolBinding.of("get_weather", "Weather.", Place.class,
        (args, ctx) -> ToolCallResult.text(args.city() + "/" + args.country().orElse("?") + "/" + ctx.sessionId()));

    ToolCallResult r = b.call().call(JSON.readTree("{\"city\":\"Lisbon\"}"),
        new ToolCallContext("SES-1", "WEATHER", "WO-1", "k1"));

    assertEquals("Lisbon/?/SES-1", r.text());
    assertEquals(Set.of("city", "country"), Set.copyOf(iterable(b.descriptor().argumentsSchema().get("properties"))));
  }

  @Test
  void aRecordThatContainsItself_orAnUnmappableType_isRefusedNamingTheComponent() {
    var loop = assertThrows(IllegalArgumentException.class, () -> ArgumentSchemas.of(Loop.class));
    assertTrue(loop.getMessage().startsWith("Loop.children[]: record Loop contains itself"), loop.getMessage());
    var odd = assertThrows(IllegalArgumentException.class, () -> ArgumentSchemas.of(Odd.class));
    assertTrue(odd.getMessage().startsWith("Odd.thread: type java.lang.Thread has no JSON Schema mapping"),
        odd.getMessage());
    var keyed = assertThrows(IllegalArgumentException.class, () -> ArgumentSchemas.of(Keyed.class));
    assertTrue(keyed.getMessage().contains("a map's keys must be strings"), keyed.getMessage());
  }

  private static List<String> iterable(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
