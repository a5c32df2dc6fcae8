package cp.client;

import cp.model.SessionSummary;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The session has ended (its user ended it, its idle timeout or lifetime passed, its turn limit
 * was reached): it takes no more turns. Carries the session's summary, so a caller can say when
 * and why, and offer a new session.
 */
public final class SessionEndedException extends ClientException {
  private static final long serialVersionUID = 1L;
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);

  private final transient SessionSummary summary;

  public SessionEndedException(SessionSummary summary) {
    super(Kind.ENDED, "session " + summary.sessionId() + " " + endedWhenAndWhy(summary)
        + "; start a new session ('cpctl chat' or 'cpctl session start')");
    this.summary = summary;
  }

  public SessionSummary summary() {
    return summary;
  }

  /**
   * "ended at 2026-11-23 15:02:11 UTC (idle_timeout: no turn for 30 min)"; the parts a summary
   * lacks (one from before those fields existed) are left out.
   */
  public static String endedWhenAndWhy(SessionSummary s) {
    StringBuilder b = new StringBuilder("ended");
    if (s.endedAt() != null) {
      b.append(" at ").append(when(s.endedAt()));
    }
    if (s.endReason() != null) {
      b.append(" (").append(s.endReason());
      if (s.endDetail() != null && !s.endDetail().isBlank()) {
        b.append(": ").append(s.endDetail());
      }
      b.append(')');
    }
    return b.toString();
  }

  private static String when(String iso) {
    try {
      return WHEN.format(Instant.parse(iso));
    } catch (DateTimeParseException e) {
      return iso;
    }
  }
}
