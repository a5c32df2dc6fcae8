package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Issue 20: what a person must judge is shown, never obeyed: control, bidi and invisible characters escaped. */
class DisplayTextTest {
  @ParameterizedTest(name = "U+{0}")
  @CsvSource({"202E", "202A", "202D", "2066", "2067", "2068", "2069", "200E", "200F", "061C", "200B", "FEFF", "001B",
      "0007", "0000", "007F", "0085", "009B", "2028", "2029", "0009", "000D"})
  void actingCharacters_areShownAsTheirCode(String hex) {
    int cp = Integer.parseInt(hex, 16);
    String text = "a" + new String(Character.toChars(cp)) + "b";

    assertEquals("a\\u" + hex + "b", DisplayText.escape(text));
    assertTrue(DisplayText.needsEscape(text));
  }

  @Test
  void newlinesAndOrdinaryTextIncludingOtherScripts_passUnchanged() {
    String text = "HO2/notes.md (12 bytes)\n  | # Überschrift\n  | 日本語 עברית ✓ 😀";
    assertEquals(text, DisplayText.escape(text));
    assertFalse(DisplayText.needsEscape(text));
    assertNull(DisplayText.escape(null));
  }

  @Test
  void supplementaryFormatCharacters_andUnpairedSurrogates_areEscaped() {
    assertEquals("tag\\U000E0041", DisplayText.escape("tag" + new String(Character.toChars(0xE0041))));
    assertEquals("x\\uD800y", DisplayText.escape("x\uD800y"));
  }

  @Test
  void escaping_isIdempotent() {
    String once = DisplayText.escape("evil\u202Etxt.sh\u001b[2J");
    assertEquals("evil\\u202Etxt.sh\\u001B[2J", once);
    assertEquals(once, DisplayText.escape(once));
  }
}
