package cp.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads input lines as strict UTF-8: a line that is not valid UTF-8 is reported as such instead
 * of being silently turned into replacement characters that would then reach the model.
 */
final class LineInput {
  /** Longest line read whole; the rest of a longer line is consumed and the line refused later by size. */
  static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

  private final InputStream in;

  LineInput(InputStream in) {
    this.in = in;
  }

  /** A line, or why it is unusable. */
  record Line(String text, String problem) {}

  /** The next line without its terminator, or null at end of input. */
  Line next() throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int b;
    boolean any = false;
    long total = 0;
    while ((b = in.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      total++;
      if (total <= MAX_LINE_BYTES) {
        buf.write(b);
      }
    }
    if (!any) {
      return null;
    }
    byte[] bytes = buf.toByteArray();
    int len = bytes.length;
    if (len > 0 && bytes[len - 1] == '\r') {
      len--;
    }
    if (total > MAX_LINE_BYTES) {
      return new Line(null, "the line is " + total + " bytes; lines over " + MAX_LINE_BYTES + " bytes are not read");
    }
    CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return new Line(dec.decode(ByteBuffer.wrap(bytes, 0, len)).toString(), null);
    } catch (CharacterCodingException e) {
      return new Line(null, "the line is not valid UTF-8 text (binary input?)");
    }
  }
}
