package cp.client;

import cp.model.Refusal;
import cp.model.SessionSummary;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The session has ended (its user ended it, its idle timeout or lifetime passed, its turn limit
 * was reached): it takes no more turns. Carries the session's summary, so a caller can say when
 * and why, and offer a new session. The message: "session SES-1a2b3c4d has ended (idle_timeout at
 * 2026-11-23 15:02:11 UTC: no turn for 30 min); start a new session".
 */
public final class SessionEndedException extends ClientException {
  private static final long serialVersionUID = 1L;
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);

  private final transient SessionSummary summary;

  public SessionEndedException(SessionSummary summary) {
    super(Kind.ENDED, "session " + summary.sessionId() + " " + endedWhenAndWhy(summary) + "; start a new session",
        null, summary.sessionId(), new Refusal(Refusal.Code.SESSION_ENDED.wire(), null, summary.endReason()));
    this.summary = summary;
  }

  public SessionSummary summary() {
    return summary;
  }

  /**
   * "has ended (idle_timeout at 2026-11-23 15:02:11 UTC: no turn for 30 min)"; the parts a summary
   * lacks (one from before those fields existed) are left out.
   */
  public static String endedWhenAndWhy(SessionSummary s) {
    StringBuilder why = new StringBuilder();
    if (s.endReason() != null) {
      why.append(s.endReason());
    }
    if (s.endedAt() != null) {
      why.append(why.length() > 0 ? " at " : "at ").append(when(s.endedAt()));
    }
    if (s.endReason() != null && s.endDetail() != null && !s.endDetail().isBlank()) {
      why.append(": ").append(s.endDetail());
    }
    return why.length() == 0 ? "has ended" : "has ended (" + why + ")";
  }

  private static String when(String iso) {
    try {
      return WHEN.format(Instant.parse(iso));
    } catch (DateTimeParseException e) {
      return iso;
    }
  }
}
