package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.OutputStreamAppender;
import cp.observability.SecretMasker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 §1, the log sink: the CLI's shipped {@code logback.xml} writes through
 * {@link MaskingEncoder}, so a log line or stack trace holding a key in part, base64 of it, or a
 * secret of a known kind is masked, with the common patterns even before a command hands over the
 * configured secrets.
 */
class MaskingEncoderTest {
  static final String KEY = "sk-ant-api03-L0gL1n3K3yXq8Zp2Lw7Ty1Vb6Nc9Md3Fg5Hj0KsQwErTyAA";

  @Test
  void theShippedLogConfiguration_masksKeyFragments_encodings_andPatterns_inMessagesAndStackTraces() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream before = System.err;
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      JoranConfigurator jc = new JoranConfigurator();
      jc.setContext(context);
      jc.doConfigure(MaskingEncoder.class.getResource("/logback.xml"));
      Logger log = context.getLogger("cp.gateway.Gateway");

      log.warn("early: a token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345 before any configuration");
      Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
      int handed = 0;
      for (var it = root.iteratorForAppenders(); it.hasNext(); ) {
        if (it.next() instanceof OutputStreamAppender<?> a && a.getEncoder() instanceof MaskingEncoder e) {
          e.use(new SecretMasker().register("ANTHROPIC_API_KEY", KEY));
          handed++;
        }
      }
      assertEquals(1, handed, "the STDERR appender encodes with MaskingEncoder");
      String noPrefix = KEY.substring(13);
      String b64 = Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8));
      log.warn("provider said: key {} (ending {}) header {}", noPrefix, KEY.substring(KEY.length() - 12), b64,
          new IOException("upstream echoed " + noPrefix.substring(5, 30)));
    } finally {
      context.stop();
      System.setErr(before);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    assertTrue(out.contains("early: a token [masked:github-token]"), out);
    assertTrue(out.contains("provider said: key [masked:ANTHROPIC_API_KEY]"), out);
    assertTrue(out.contains("java.io.IOException: upstream echoed [masked:ANTHROPIC_API_KEY]"), "the stack trace: " + out);
    assertFalse(out.contains(KEY.substring(20, 32)) || out.contains(KEY.substring(KEY.length() - 12)), out);
    assertFalse(out.contains(Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8)).substring(8, 40)),
        out);
  }
}
