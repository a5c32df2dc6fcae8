package cp.gateway.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import org.junit.jupiter.api.Test;

class LengthLimitTest {
  @Test
  void textThatFits_isReturnedUnchanged() {
    assertEquals("short text", LengthLimit.cut("short text", 10));
  }

  @Test
  void longText_isCutAtAWordBoundaryWithAnEllipsis() {
    String cut = LengthLimit.cut("the quick brown fox jumps over the lazy dog", 20);
    assertEquals("the quick brown fox\u2026", cut);
  }

  @Test
  void cut_neverSplitsASurrogatePair() {
    String cut = LengthLimit.cut("ab\uD83D\uDE00cdef", 4);
    assertEquals("ab\u2026", cut);
  }

  @Test
  void cutKeepingSuffix_keepsTheMarkerAndTheLimit() {
    String text = "word ".repeat(40) + "(offline model)";
    String cut = LengthLimit.cutKeepingSuffix(text, "(offline model)", 60);
    assertTrue(cut.length() <= 60, cut);
    assertTrue(cut.endsWith("\u2026 (offline model)"), cut);
  }

  @Test
  void cutJson_shortensTheLongestStringAndStaysValidEvenWithEscapes() {
    ObjectNode o = Json.object().put("kind", "answer").put("text", "say \"hi\"\n\\ ".repeat(30));
    for (int limit = 27; limit < 200; limit += 7) {
      String json = LengthLimit.cutJson(o, limit);
      assertTrue(json.length() <= limit, limit + ": " + json);
      assertEquals("answer", Json.parse(json).get("kind").asText());
    }
  }

  @Test
  void cutJson_whenNothingFits_keepsValidJsonWithAnEmptyString() {
    ObjectNode o = Json.object().put("a_long_field_name", "value");
    assertEquals("{\"a_long_field_name\":\"\"}", LengthLimit.cutJson(o, 5));
  }
}
