package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a terminal gets from a reply that tries to act on it (a tester's Java tool returned these). */
class TerminalOutputTest {
  @Test
  void escapeSequencesBellAndBidiOverrides_areShownEscaped_textTabsNewlinesAndEmojiAsTheyAre() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = TerminalOutput.over(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    out.print("\u001b[31mRED\u001b]0;PWNED\u0007 \u202eevil");
    out.println(new StringBuilder("\tcode\n👨\u200d👩\u200d👧 café ✓\r"));
    out.flush();
    assertEquals("\\u001B[31mRED\\u001B]0;PWNED\\u0007 \\u202Eevil\tcode\n👨\u200d👩\u200d👧 café ✓\\u000D"
        + System.lineSeparator(), bytes.toString(StandardCharsets.UTF_8));
  }
}
