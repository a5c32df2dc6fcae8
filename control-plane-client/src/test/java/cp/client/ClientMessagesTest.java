package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.SessionSummary;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: the client is a library; what it says must make sense in any program. Its messages
 * never tell a library user to run a {@code cpctl} command (the CLI adds its own hints), and a
 * turn or end on an ended session reads "session SES-… has ended (reason …)".
 */
class ClientMessagesTest {
  static final SessionSummary IDLE = new SessionSummary("SES-1a2b3c4d", "ADMIN", 3, 900, 100000, 0.009,
      "idle_timeout", 0, null, "2026-11-23T15:02:11Z", "no turn for 30 min");

  /** The string constants of every class the client jar (or classes directory) holds. */
  static List<String> clientClassTexts() throws IOException, URISyntaxException {
    Path where = Path.of(ControlPlaneClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> texts = new ArrayList<>();
    if (Files.isDirectory(where)) {
      try (Stream<Path> files = Files.walk(where)) {
        for (Path p : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          texts.add(p.getFileName() + ":" + new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
        }
      }
    } else {
      try (JarFile jar = new JarFile(where.toFile())) {
        for (var e : java.util.Collections.list(jar.entries())) {
          if (e.getName().endsWith(".class")) {
            try (InputStream in = jar.getInputStream(e)) {
              texts.add(e.getName() + ":" + new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
            }
          }
        }
      }
    }
    return texts;
  }

  @Test
  void noClientClassMentionsCpctl() throws Exception {
    List<String> texts = clientClassTexts();
    assertTrue(texts.size() >= 4, "found the client's classes: " + texts.size());
    for (String t : texts) {
      assertFalse(t.contains("cpctl"), () -> "a client class tells a library user to run cpctl: "
          + t.substring(0, t.indexOf(':')));
    }
  }

  @Test
  void anEndedSession_saysHasEndedWithItsReasonWhenAndWhy() {
    SessionEndedException e = new SessionEndedException(IDLE);
    assertEquals("session SES-1a2b3c4d has ended (idle_timeout at 2026-11-23 15:02:11 UTC: no turn for 30 min);"
        + " start a new session", e.getMessage());
    assertEquals(ClientException.Kind.ENDED, e.kind());
    assertEquals("SES-1a2b3c4d", e.sessionId());
  }
}
