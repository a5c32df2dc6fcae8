package cp.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * The charset cpctl writes its stdout and stderr in. The locale's, except where the locale says
 * US-ASCII (the C or POSIX locale, or none: {@code LANG} unset, as in many containers, cron jobs and
 * ssh sessions): there the JVM would print every character of a reply beyond ASCII as '?', while
 * cpctl reads its input as UTF-8 in any locale ({@link LineInput}). Under that locale cpctl writes
 * UTF-8, as Python does in its C-locale UTF-8 mode (PEP 538, PEP 540).
 */
final class OutputCharset {
  /** A {@link PrintStream} to a terminal is line-sized: the JVM's own System.out buffers as much. */
  static final int BUFFER_BYTES = 128;

  private OutputCharset() {}

  /** The charset for output, given the JVM's {@code native.encoding} (the locale's). */
  static Charset forLocaleEncoding(String nativeEncoding) {
    if (nativeEncoding == null || nativeEncoding.isBlank()) {
      return StandardCharsets.UTF_8;
    }
    try {
      Charset cs = Charset.forName(nativeEncoding.trim());
      return cs.equals(StandardCharsets.US_ASCII) ? StandardCharsets.UTF_8 : cs;
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      return StandardCharsets.UTF_8;
    }
  }

  /**
   * Makes {@code System.out} and {@code System.err} write in {@link #forLocaleEncoding} of this
   * JVM's locale; leaves them as they are when that is the locale's charset already.
   */
  static void applyToSystemStreams() {
    Charset cs = forLocaleEncoding(System.getProperty("native.encoding"));
    if (cs.equals(Charset.defaultCharset())) {
      return;
    }
    System.out.flush();
    System.err.flush();
    System.setOut(stream(FileDescriptor.out, cs));
    System.setErr(stream(FileDescriptor.err, cs));
  }

  private static PrintStream stream(FileDescriptor fd, Charset cs) {
    return new PrintStream(new BufferedOutputStream(new FileOutputStream(fd), BUFFER_BYTES), true, cs);
  }
}
