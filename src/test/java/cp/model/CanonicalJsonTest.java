package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The canonical form hashes every ledger entry, so it must never change: writing the sorted
 * tree straight to the generator gives, byte for byte, what writing a sorted copy gave.
 */
class CanonicalJsonTest {
  /** The canonical form as it was first written: a sorted deep copy, then the mapper. */
  static String byCopy(Object value) {
    return Json.write(Json.sorted(Json.tree(value)));
  }

  @Test
  void canonical_isTheSortedCopyWrittenByTheMapper_forEveryKindOfValue() {
    ObjectNode n = Json.object();
    n.put("zeta", "last").put("alpha", 1).put("Beta", -2L).put("_under", true).putNull("nothing");
    n.put("double", 0.1).put("tiny", 1e-7).put("big", 12345678901234.5).put("neg", -0.0);
    n.put("bigint", new BigInteger("123456789012345678901234567890"));
    n.put("decimal", new BigDecimal("3.14159265358979323846264338327950288"));
    n.put("text", "quotes \" backslash \\ newline \n tab \t nul \u0000 bell \u0007 ls \u2028 é 中文 😀 </script>");
    n.putObject("empty");
    n.putArray("emptyList");
    ObjectNode nested = n.putObject("nested");
    nested.put("b", 2).put("a", 1).putArray("list").add(3).add("x").addNull().addObject().put("y", 1).put("x", 2);
    nested.set("deep", Json.parse("{\"c\":{\"b\":{\"a\":[{\"z\":1,\"y\":[true,false,null]}]}}}"));
    List<Object> values = List.of(n, Json.object(), Json.array(), Json.parse("[3,1,2]"), "plain text", 42,
        WoCost.llmCall(1200, 40, 0.0042), Json.parse("{\"unicode\":\"\\ud83d\\ude00\",\"escaped\":\"\\u001f\"}"));
    for (Object v : values) {
      assertEquals(byCopy(v), Json.canonical(v), String.valueOf(v));
    }
  }

  @Test
  void canonical_ofALedgerShapedEntry_isUnchanged() {
    JsonNode entry = Json.parse("{\"entry_id\":\"LED-0123456789abcdef\",\"timestamp\":\"2026-01-01T00:00:00.123456Z\","
        + "\"event_type\":\"EXCHANGE\",\"metadata\":{\"prompt\":{\"system\":\"You are...\",\"messages\":[{\"role\":"
        + "\"user\",\"content\":[{\"type\":\"text\",\"text\":\"<input>\\n{\\\"user_input\\\":\\\"hi\\\"}\\n</input>\"}]}],"
        + "\"tools\":[\"read_file\"]},\"input_tokens\":812,\"cost\":0.002436,\"output_valid\":true},"
        + "\"prev_hash\":\"" + "0".repeat(64) + "\"}");
    assertEquals(byCopy(entry), Json.canonical(entry));
  }
}
