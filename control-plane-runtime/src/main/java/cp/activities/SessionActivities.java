package cp.activities;

import cp.model.AgentProfile;
import cp.model.SessionEvent;
import cp.model.WoCost;
import io.temporal.activity.ActivityInterface;

/** The session host's I/O: the agent's limits and the HOT-ledger session events. */
@ActivityInterface(namePrefix = "Session")
public interface SessionActivities {
  /** The limits of an agent class, from its validated configuration. */
  AgentProfile profile(String agentClass);

  /**
   * Issue 21/23 ({@code tenant-capped} 1): the agent's profile as {@link #profile}, saying whether
   * {@code tenant} has a daily or monthly cap on this worker ({@link AgentProfile#tenantCapped}), so
   * a session whose tenant has none never asks {@link #tenantRoom} before a turn.
   */
  AgentProfile profileForTenant(String agentClass, String tenant);

  /** Writes SESSION_START, SESSION_END or DEGRADATION to the HOT ledger, once per key. */
  String record(SessionEvent event);

  /** Tokens a (failed) turn workflow already spent, summed from its EXCHANGE records. */
  long turnSpend(String sessionId, String turnWorkflowId);

  /**
   * What a turn workflow spent, summed from its EXCHANGE records: input and output tokens, round
   * trips and cost. The session counts a failed or timed-out turn with it, so its figures equal
   * the ledger's.
   */
  WoCost turnCost(String sessionId, String turnWorkflowId);

  /**
   * Issue 23: whether the session's tenant can pay for the turn's smallest call (the classify call
   * for this message, at the agent's model's price) under its daily and monthly caps, from what the
   * shared tenant counters hold spent.
   */
  cp.model.TenantRoom tenantRoom(cp.model.TenantRoom.Request request);
}
