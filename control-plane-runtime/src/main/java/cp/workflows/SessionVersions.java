package cp.workflows;

/**
 * The session workflow's {@code Workflow.getVersion} change ids, in one place. Each is asked where
 * its behaviour branches (a run that started before the change replays the old branch); the
 * client contract's version table names every one ({@code ClientContractDocTest} checks).
 */
final class SessionVersions {
  /**
   * Issue 12's contract defence: from version 1 on the session refuses a start input that is not a
   * session's ({@code start_refused}, the workflow fails at once: a malformed input, a missing or
   * not upper-case agent_class, a workflow id other than session_id, an agent class the catalog
   * does not have) and sets its own search attributes (CpSessionId, CpAgentClass, CpTurn) when its
   * start did not.
   */
  static final String CONTRACT_DEFENCE = "contract-defence";
  /**
   * From version 1 on, a turn or {@code end} that arrives while SESSION_START is being written
   * waits until it is on record (before, it waited only for the profile, so under load
   * SESSION_END, or a turn's child, could come before SESSION_START).
   */
  static final String START_FIRST = "start-first";
  /**
   * From version 1 on, a DEGRADATION that cannot be written (after the local activity's retries)
   * no longer fails the turn; the degraded call still runs.
   */
  static final String DEGRADATION_LOG_NON_FATAL = "degradation-log-non-fatal";
  /**
   * From version 1 on, a session that expires (idle or lifetime timeout) and cannot write
   * SESSION_END after the local activity's retries waits {@link SessionEnding#RETRY_INTERVAL} and
   * writes it again, refusing turns meanwhile, instead of failing the workflow with no SESSION_END
   * on record.
   */
  static final String SESSION_END_RETRY = "session-end-retry";
  /**
   * From version 1 on, a ledger that refuses an append (error type {@code ledger_unwritable} or
   * {@code ledger_full}) is named to the user: a turn whose degraded call failed on it answers with
   * the ledger's line ({@code outcome=error}, error code {@code ledger_unwritable}) instead of
   * "temporarily unavailable"; and an explicit {@code end} whose SESSION_END the HOT ledger refuses
   * for good ({@code ledger_unwritable}) ends the session anyway, saying in the summary that
   * SESSION_END was not recorded and why, instead of failing the Update and leaving the session open.
   */
  static final String LEDGER_UNWRITABLE = "ledger-unwritable";
  /**
   * Issue 11's session changes, one id for all of them: the session ends with SESSION_END
   * {@code turn_limit} when its last allowed turn completes; a turn (child workflow and degraded
   * call) has a total deadline, {@code budget.turn_timeout_seconds}; a degraded turn counts what
   * the failed turn's EXCHANGEs hold (tokens and cost, {@code SessionTurnCost}) and its degraded
   * call's cost.
   */
  static final String ROUND2_SESSION = "round2-session";
  /**
   * Issue 23: from version 1 on, the session sets CpTenant (its start input's tenant, else
   * {@code default}) among its own search attributes.
   */
  static final String TENANT = "tenant";
  /**
   * Issue 23: from version 1 on, a session whose agent has a dollar cap refuses a turn up front when
   * its {@code budget.session_usd} cannot pay for the turn's smallest call ({@link SessionDollars}),
   * and hands each turn what it has spent in dollars, so the turn's work orders reserve each call's
   * worst case against the tightest of the work order's and the session's dollar budgets. The turn
   * asks the same id ({@link TurnWorkflowImpl#DOLLAR_BUDGETS}).
   */
  static final String DOLLAR_BUDGETS = "dollar-budgets";
  /**
   * Issue 23: from version 1 on, the degraded call carries the session's tenant (it reserves and
   * settles that tenant's dollars; before, it counted against {@code default}), and a degraded call
   * refused for the tenant's daily or monthly cap says so, not that the session's tokens ran out.
   */
  static final String DEGRADED_TENANT = "degraded-tenant";
  /**
   * From version 1 on, a session with a dollar budget ({@code budget.session_usd}) gives its degraded
   * call what the session has left (the cap less what it spent, the failed turn included): the call
   * reserves its worst case against it like any other call, so the last resort cannot overspend the
   * session, and is not made at all when nothing is left. Before, it reserved only tokens and the
   * tenant's dollars. Asked only by sessions with a dollar budget, right before the degraded call.
   */
  static final String DEGRADED_SESSION_USD = "degraded-session-usd";
  /**
   * Issue 23: from version 1 on, before each turn runs, the session asks (a local activity) whether
   * its tenant's daily and monthly caps can pay for the turn's smallest call, and refuses the turn
   * up front ({@code budget_exhausted}, level {@code tenant_day}/{@code tenant_month}) when not.
   */
  static final String TENANT_ADMISSION = "tenant-admission";
  /**
   * Issues 21 and 23: from version 1 on, a new session loads its profile with
   * {@code profileForTenant}, which says whether its tenant has a daily or monthly cap on the worker
   * ({@code AgentProfile.tenantCapped}); a session whose tenant has none skips the
   * {@link #TENANT_ADMISSION} local activity before each turn (it can never refuse), which took a
   * local activity off every such turn's critical path. The answer is carried across
   * continue-as-new with the profile; null (a profile loaded before) asks, as before.
   */
  static final String TENANT_CAPPED = "tenant-capped";
  static final int ROUND2_VERSION = 1;

  private SessionVersions() {}
}
