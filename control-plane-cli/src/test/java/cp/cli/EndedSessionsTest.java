package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.client.SessionEndedException;
import cp.model.SessionSummary;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** What chat says and asks when its session ended by itself (issue 11 item 3). */
class EndedSessionsTest {
  static final SessionSummary IDLE = new SessionSummary("SES-1a2b3c4d", "ADMIN", 3, 9000, 200_000, 0.012,
      "idle_timeout", 0, null, "2026-11-23T15:02:11.123Z", "no turn for 30 min");

  @ParameterizedTest
  @CsvSource(value = {"'\n',true", "'y\n',true", "'YES\n',true", "'n\n',false", "'no\n',false", "'',false"})
  void offer_namesWhenAndWhy_andEnterMeansYes(String answer, boolean yes) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
    LineInput in = new LineInput(new ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8)));

    boolean accepted = EndedSessions.offerNewSession(new SessionEndedException(IDLE), in, out);

    assertEquals(yes, accepted);
    assertEquals("Session SES-1a2b3c4d has ended (idle_timeout at 2026-11-23 15:02:11 UTC: no turn for 30 min)."
        + " Start a new session? [Y/n] ", buf.toString(StandardCharsets.UTF_8));
  }

  @Test
  void endedException_andClosingLine_sayWhenAndWhy() {
    SessionEndedException e = new SessionEndedException(IDLE);
    assertTrue(e.getMessage().startsWith("session SES-1a2b3c4d has ended (idle_timeout at 2026-11-23 15:02:11 UTC: no"
        + " turn for 30 min); start a new session"), e.getMessage());
    assertFalse(e.getMessage().contains("not found"));
    assertTrue(EndedSessions.notSent(e).contains("were not sent"));
    assertEquals("Session SES-1a2b3c4d ended: 3 turn(s), 9000 tokens, $0.0120. (idle_timeout)",
        EndedSessions.closing(IDLE));
  }
}
