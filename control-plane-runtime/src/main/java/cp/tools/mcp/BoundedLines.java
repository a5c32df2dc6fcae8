package cp.tools.mcp;

import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a server's stdout, each at most {@code max} characters: a longer line is read to its end
 * and dropped ({@link #tooLong()} says so), so a server that writes without end cannot exhaust the
 * worker's memory. Ends of line are {@code \n} or {@code \r\n}. Not thread-safe: one reader thread.
 */
final class BoundedLines {
  private final Reader in;
  private final int max;
  private boolean tooLong;
  private int tooLongChars;

  BoundedLines(Reader in, int max) {
    this.in = in;
    this.max = max;
  }

  /** The next line without its end of line; null at the end of the stream; "" for a line that was too long. */
  String next() throws IOException {
    StringBuilder line = new StringBuilder();
    tooLong = false;
    tooLongChars = 0;
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      if (tooLong) {
        tooLongChars++;
      } else if (line.length() == max) {
        tooLong = true;
        tooLongChars = max + 1;
        line.setLength(0);
      } else {
        line.append((char) c);
      }
    }
    if (c == -1 && line.length() == 0 && !tooLong) {
      return null;
    }
    int end = line.length();
    if (end > 0 && line.charAt(end - 1) == '\r') {
      line.setLength(end - 1);
    }
    return line.toString();
  }

  /** Whether the line {@link #next()} gave last was longer than {@code max} (and given as ""). */
  boolean tooLong() {
    return tooLong;
  }

  /** How long that line was, in characters. */
  int tooLongChars() {
    return tooLongChars;
  }
}
