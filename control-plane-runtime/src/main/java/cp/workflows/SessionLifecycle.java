package cp.workflows;

import cp.model.AgentProfile;
import cp.model.FailureCode;
import cp.model.Refusal;
import java.time.Instant;

/**
 * Where a session is in its life — starting, open, ending, ended — and when it expires. Pure
 * workflow state, no commands: the run loop and the Update handlers ask it, the steps that write
 * SESSION_START and SESSION_END tell it.
 *
 * <p>An Update can arrive in the first workflow task, before the run has loaded the agent's
 * profile: until then {@link #profile()} is null and {@link #readyForUpdates()} false.
 */
final class SessionLifecycle {
  private String sessionId;
  private String agentClass;
  private AgentProfile profile;
  private long startedAtMillis;
  private int runs;
  /**
   * SESSION_START is on record (or this run carries an earlier run's state): turns and {@code end}
   * wait for it, so no entry of the session precedes its SESSION_START in the ledger.
   */
  private boolean startRecorded;
  /** From {@link SessionVersions#START_FIRST} 1 on: Updates wait for {@link #startRecorded}, not only the profile. */
  private boolean startFirst;
  private boolean ended;
  private String endReason;
  private long endedAtMillis;
  /** Why SESSION_END is not on record though the session ended (see {@link SessionVersions#LEDGER_UNWRITABLE}); else null. */
  private String endNotRecorded;
  private boolean endRequested;
  /** The session expired and is writing SESSION_END (again): it takes no more turns. */
  private boolean expiring;
  private long lastActivityAt;
  /** Bumped on every event the run loop must look at again (a turn queued or done, an end). */
  private int activitySeq;
  private int pendingTurns;

  void identify(String sessionId, String agentClass, boolean startFirst) {
    this.sessionId = sessionId;
    this.agentClass = agentClass;
    this.startFirst = startFirst;
  }

  /**
   * The run has its agent's profile (loaded, or carried from the run before); SESSION_START may
   * still be being written.
   */
  void profileLoaded(AgentProfile profile, long startedAtMillis, int runs) {
    this.profile = profile;
    this.startedAtMillis = startedAtMillis;
    this.runs = runs;
  }

  /** SESSION_START is on record (or carried from the run before): the session is open. */
  void opened(long nowMillis) {
    this.startRecorded = true;
    this.lastActivityAt = nowMillis;
  }

  String sessionId() {
    return sessionId;
  }

  String agentClass() {
    return agentClass;
  }

  AgentProfile profile() {
    return profile;
  }

  long startedAtMillis() {
    return startedAtMillis;
  }

  int runs() {
    return runs;
  }

  /** Whether an Update may go on: the profile is loaded and, from start-first 1 on, SESSION_START is on record. */
  boolean readyForUpdates() {
    return profile != null && (!startFirst || startRecorded);
  }

  // ------------------------------------------------------------------ what wakes the run loop

  int activitySeq() {
    return activitySeq;
  }

  void wake() {
    activitySeq++;
  }

  /** A turn arrived: it counts as queued until {@link #turnDone}. */
  void turnQueued() {
    pendingTurns++;
    activitySeq++;
  }

  void turnDone(long nowMillis) {
    pendingTurns--;
    lastActivityAt = nowMillis;
    activitySeq++;
  }

  int pendingTurns() {
    return pendingTurns;
  }

  void endRequested() {
    endRequested = true;
    activitySeq++;
  }

  boolean isEndRequested() {
    return endRequested;
  }

  // ------------------------------------------------------------------ ending and ended

  boolean isEnded() {
    return ended;
  }

  /** Ended, asked to end, or expiring: no more turns. */
  boolean isClosing() {
    return ended || endRequested || expiring;
  }

  void expiring() {
    expiring = true;
  }

  void ended(String reason, long nowMillis) {
    ended = true;
    endReason = reason;
    endedAtMillis = nowMillis;
    activitySeq++;
  }

  /** Ended without SESSION_END on record, saying why (see {@link SessionVersions#LEDGER_UNWRITABLE}). */
  void endedUnrecorded(String reason, String why, long nowMillis) {
    endNotRecorded = why;
    ended(reason, nowMillis);
  }

  String endReason() {
    return endReason;
  }

  String endNotRecorded() {
    return endNotRecorded;
  }

  /** When the session ended, ISO-8601; {@code nowMillis} while SESSION_END is being written. */
  String endedAt(long nowMillis) {
    return Instant.ofEpochMilli(endedAtMillis > 0 ? endedAtMillis : nowMillis).toString();
  }

  /** "session SES-… has ended (idle_timeout at 2026-…)", or "… has ended" while SESSION_END is being written. */
  Refusal.Problem endedProblem() {
    String why = endReason == null ? "" : " (" + endReason
        + (endedAtMillis > 0 ? " at " + Instant.ofEpochMilli(endedAtMillis) : "") + ")";
    return new Refusal.Problem("session " + sessionId + " has ended" + why + "; start a new session",
        new Refusal(FailureCode.SESSION_ENDED.wire(), null, endReason));
  }

  // ------------------------------------------------------------------ expiry

  /** Millis until the idle timeout or the lifetime ends the session, whichever is first; MAX_VALUE: never. */
  long millisUntilExpiry(long nowMillis) {
    long wait = Long.MAX_VALUE;
    if (profile.idleTimeoutSeconds() > 0) {
      wait = Math.min(wait, lastActivityAt + profile.idleTimeoutSeconds() * 1000 - nowMillis);
    }
    if (profile.timeoutSeconds() > 0) {
      wait = Math.min(wait, lifetimeEndsAt() - nowMillis);
    }
    return wait;
  }

  /** {@code session_timeout} when the lifetime has passed, else {@code idle_timeout}. */
  String expiryReason(long nowMillis) {
    return profile.timeoutSeconds() > 0 && nowMillis >= lifetimeEndsAt() ? "session_timeout" : "idle_timeout";
  }

  /** Whether the session's lifetime (budget.timeout_seconds, if above 0) has passed. */
  boolean lifetimeOver(long nowMillis) {
    return profile.timeoutSeconds() > 0 && nowMillis >= lifetimeEndsAt();
  }

  /** When the session's lifetime (budget.timeout_seconds, if above 0) runs out, in epoch millis. */
  private long lifetimeEndsAt() {
    return startedAtMillis + profile.timeoutSeconds() * 1000;
  }
}
