package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** A server's stdout line longer than the bound is dropped whole; the lines around it come through. */
class BoundedLinesTest {
  @Test
  void aLineLongerThanTheBound_isDropped_andTheNextLineIsWhole() throws IOException {
    BoundedLines lines = new BoundedLines(new StringReader("{\"a\":1}\r\n" + "x".repeat(25) + "\nlast"), 10);

    assertEquals("{\"a\":1}", lines.next());
    assertFalse(lines.tooLong());
    assertEquals("", lines.next());
    assertTrue(lines.tooLong());
    assertEquals(25, lines.tooLongChars());
    assertEquals("last", lines.next());
    assertFalse(lines.tooLong());
    assertNull(lines.next());
  }

  @Test
  void aLineOfExactlyTheBound_isKept() throws IOException {
    BoundedLines lines = new BoundedLines(new StringReader("0123456789\n"), 10);

    assertEquals("0123456789", lines.next());
    assertFalse(lines.tooLong());
    assertNull(lines.next());
  }
}
