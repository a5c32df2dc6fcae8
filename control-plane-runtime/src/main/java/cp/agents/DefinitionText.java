package cp.agents;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether a definition file's bytes are UTF-8, and where the first byte that is not: line, column
 * and byte offset. The YAML parser's own error named the wrong place (line 1, column 1, "byte
 * #-1") and its class ({@code CharConversionException}). Stateless.
 */
final class DefinitionText {
  private DefinitionText() {}

  /** Empty when {@code bytes} are UTF-8 (or UTF-16/32 with a byte order mark); else what is wrong and where, one line. */
  static Optional<String> notUtf8(byte[] bytes) {
    if (bytes.length >= 2 && ((bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF
        || (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE)) {
      return Optional.empty(); // a UTF-16 (or -32) file says so itself; the parser reads it
    }
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(Math.max(16, bytes.length));
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      return Optional.empty();
    }
    int offset = in.position();
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int column = new String(bytes, lineStart, offset - lineStart, StandardCharsets.UTF_8).codePointCount(0,
        new String(bytes, lineStart, offset - lineStart, StandardCharsets.UTF_8).length()) + 1;
    return Optional.of(String.format("is not UTF-8: byte 0x%02X at line %d, column %d (byte offset %d); save the file"
        + " as UTF-8", bytes[offset] & 0xFF, line, column, offset));
  }
}
