package cp.model;

/** How a turn ended, as {@link TurnResult#outcome()} spells it. */
public final class TurnOutcome {
  /** HO2 answered and the quality gate accepted. */
  public static final String SUCCESS = "success";
  /** HO2 answered but the quality gate rejected every attempt; an ESCALATION was recorded. */
  public static final String ESCALATED = "escalated";
  /** HO2 failed; one direct call under the degraded contract answered. */
  public static final String DEGRADED = "degraded";
  /** Nothing could answer (or the budget ran out); the response says why. */
  public static final String ERROR = "error";

  private TurnOutcome() {}
}
