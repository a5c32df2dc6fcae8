package cp.workflows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.activities.SessionActivities;
import cp.model.AgentProfile;
import cp.model.EventType;
import cp.model.Json;
import cp.model.RootCause;
import cp.model.SessionEvent;
import cp.model.SessionSummary;
import cp.model.WoErrorCode;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * How a session ends: asked by its user ({@code end}), or by itself when it expires (idle
 * timeout, lifetime) or its last allowed turn is done. Writes SESSION_END with the budget summary
 * and says why the session ended in words a user can act on. Deterministic workflow code.
 */
final class SessionEnding {
  /** SESSION_END's end_reason when the last turn the agent allows has completed. */
  static final String TURN_LIMIT = "turn_limit";
  /** How long an expired session waits before it writes SESSION_END again. */
  static final Duration RETRY_INTERVAL = Duration.ofMinutes(1);

  private final SessionActivities session;
  private final SessionLifecycle life;
  private final SessionAccount account;

  SessionEnding(SessionActivities session, SessionLifecycle life, SessionAccount account) {
    this.session = session;
    this.life = life;
    this.account = account;
  }

  /**
   * The user's {@code end}. A HOT ledger that refuses SESSION_END for good (a broken chain, a file
   * that refuses writes) does not keep the session open (from {@link SessionVersions#LEDGER_UNWRITABLE}
   * 1 on): the session ends, and the summary says SESSION_END was not recorded, why, and what to
   * run. A full disk ({@code ledger_full}) still fails the Update after the local activity's
   * retries: space can be freed, and the next {@code end} then writes SESSION_END.
   */
  void endAsAsked() {
    try {
      end("end");
    } catch (ActivityFailure e) {
      if (!WoErrorCode.LEDGER_UNWRITABLE.equals(RootCause.failureType(e))
          || Workflow.getVersion(SessionVersions.LEDGER_UNWRITABLE, Workflow.DEFAULT_VERSION, 1) < 1) {
        throw e;
      }
      // One end time for every reader of the summary.
      life.endedUnrecorded("end", "SESSION_END could not be written: " + RootCause.applicationMessage(e),
          Workflow.currentTimeMillis());
    }
  }

  /**
   * Ends an expired session. Nobody waits for this end, so it is patient: SESSION_END is the
   * session's last record, and a ledger that refuses it (a full disk) gets it once it is writable
   * again; the write is idempotent, so a retry never writes it twice.
   */
  void endOnExpiry(String reason) {
    if (Workflow.getVersion(SessionVersions.SESSION_END_RETRY, Workflow.DEFAULT_VERSION, 1) < 1) {
      end(reason);
      return;
    }
    life.expiring();
    while (true) {
      try {
        end(reason);
        return;
      } catch (ActivityFailure e) {
        Workflow.getLogger(SessionEnding.class).warn("session {} expired ({}) but SESSION_END could not be"
            + " written ({}); trying again in {}", life.sessionId(), reason, RootCause.innermostMessage(e),
            RETRY_INTERVAL);
        Workflow.sleep(RETRY_INTERVAL);
      }
    }
  }

  private void end(String reason) {
    ObjectNode meta = (ObjectNode) Json.tree(summary(reason));
    meta.put("tokens_remaining", account.tokensLeft(life.profile().sessionTokenLimit()));
    meta.put("runs", life.runs());
    session.record(new SessionEvent(EventType.SESSION_END.wire(), EventType.SESSION_END.wire(), life.sessionId(),
        "ENDED", "session ended: " + reason, meta));
    life.ended(reason, Workflow.currentTimeMillis());
  }

  /** The session's summary as it stands (end_reason null while it is open). */
  SessionSummary summary() {
    return summary(life.endReason());
  }

  private SessionSummary summary(String reason) {
    String endedAt = reason == null ? null : life.endedAt(Workflow.currentTimeMillis());
    return new SessionSummary(life.sessionId(), life.agentClass(), account.turns(), account.tokensUsed(),
        life.profile().sessionTokenLimit(), account.cost(), reason, account.degradedTurns(), life.endNotRecorded(),
        endedAt, endDetail(reason));
  }

  /** Why the session ended, in words a user can act on; null while it is open. */
  private String endDetail(String reason) {
    if (reason == null) {
      return null;
    }
    AgentProfile profile = life.profile();
    return switch (reason) {
      case "end" -> "ended by its user";
      case "idle_timeout" -> "no turn for " + Durations.words(profile.idleTimeoutSeconds());
      case "session_timeout" -> "its lifetime of " + Durations.words(profile.timeoutSeconds()) + " was reached";
      case TURN_LIMIT -> "all " + profile.turnLimit() + " turns its agent allows were used";
      default -> reason;
    };
  }
}
