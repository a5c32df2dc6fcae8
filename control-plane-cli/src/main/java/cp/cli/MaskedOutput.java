package cp.cli;

import cp.observability.SecretMasker;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * What {@code cpctl show} and {@code cpctl ledger query} print, secrets masked line by line
 * (issue 20 §1): entries written before masking existed, or by a process that did not know a
 * secret, are masked when they are shown. A private key printed over several lines is masked from
 * its BEGIN line to its END line. Output passes a line at a time, so a long listing still streams.
 *
 * <p>Thread safety: one command's output, written from its thread.
 */
final class MaskedOutput extends OutputStream {
  private static final Pattern KEY_BEGIN = Pattern.compile("-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----");
  private static final Pattern KEY_END = Pattern.compile("-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----");
  static final String KEY_LINE = "[masked:private-key]";

  private final PrintStream out;
  private final SecretMasker masker;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean insideKey;

  private MaskedOutput(PrintStream out, SecretMasker masker) {
    this.out = out;
    this.masker = masker;
  }

  /** One command's masked stdout, made on first use (the command's {@code out()} returns it). */
  static final class Lazy {
    private PrintStream masked;

    PrintStream of(PrintStream out, java.util.function.Supplier<SecretMasker> masker) {
      if (masked == null) {
        masked = over(out, masker.get());
      }
      return masked;
    }
  }

  /** A print stream over {@code out} whose lines pass {@code masker} first. */
  static PrintStream over(PrintStream out, SecretMasker masker) {
    return new PrintStream(new MaskedOutput(out, masker), true, StandardCharsets.UTF_8);
  }

  @Override
  public void write(int b) {
    line.write(b);
    if (b == '\n') {
      emit();
    }
  }

  @Override
  public void write(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      write(b[i]);
    }
  }

  /** A partial line stays buffered until its newline (a secret may be split across writes); {@link #close} writes it. */
  @Override
  public void flush() {
    out.flush();
  }

  @Override
  public void close() {
    emit();
    out.flush();
  }

  private void emit() {
    if (line.size() == 0) {
      return;
    }
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    String masked;
    if (insideKey) {
      boolean end = KEY_END.matcher(text).find();
      insideKey = !end;
      masked = text.endsWith("\n") ? KEY_LINE + "\n" : KEY_LINE;
    } else {
      insideKey = KEY_BEGIN.matcher(text).find() && !KEY_END.matcher(text).find();
      masked = masker.mask(text);
    }
    out.print(masked);
  }
}
