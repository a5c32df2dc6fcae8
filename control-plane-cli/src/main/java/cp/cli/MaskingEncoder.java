package cp.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import cp.observability.SecretMasker;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.slf4j.ILoggerFactory;

/**
 * The log encoder of {@code logback.xml} (issue 20 §1): each formatted event, message and stack
 * trace included, passes a {@link SecretMasker} before it is written. Until a command hands it the
 * process's masker ({@link #useEverywhere}) it masks the common secret patterns; from then on the
 * configured secrets too, fragments and encodings included.
 *
 * <p>Thread safety: logback calls {@link #encode} from any logging thread; the masker is replaced
 * atomically.
 */
public final class MaskingEncoder extends PatternLayoutEncoder {
  private volatile SecretMasker masker = new SecretMasker();

  @Override
  public byte[] encode(ILoggingEvent event) {
    byte[] raw = super.encode(event);
    Charset cs = getCharset() != null ? getCharset() : StandardCharsets.UTF_8;
    String text = new String(raw, cs);
    String masked = masker.mask(text);
    return masked.equals(text) ? raw : masked.getBytes(cs);
  }

  /** Masks with {@code m} from now on. */
  public void use(SecretMasker m) {
    masker = java.util.Objects.requireNonNull(m, "masker");
  }

  /**
   * Hands {@code m} to every {@link MaskingEncoder} of the process's logback configuration; returns
   * how many there were (none when logback is not the SLF4J backend or the configuration uses
   * another encoder, as the tests' does).
   */
  public static int useEverywhere(SecretMasker m) {
    ILoggerFactory factory = org.slf4j.LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      return 0;
    }
    int n = 0;
    for (var logger : context.getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        if (it.next() instanceof OutputStreamAppender<ILoggingEvent> a && a.getEncoder() instanceof MaskingEncoder e) {
          e.use(m);
          n++;
        }
      }
    }
    return n;
  }
}
