package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * What an eval judge work order judges (issue 25 §5): a case's rubric, the user's text and the reply
 * the run produced, in the case's session (whose agent class and tenant the work order runs under)
 * with a token budget of its own. The texts travel because the judge's prompt is made of them; they
 * are the case's, which the suite file holds anyway.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record JudgeRequest(String sessionId, String agentClass, String tenant, String rubric, String userText,
    String reply, long tokenBudget) {
  /** The judge's prompt contract: input {rubric, user_text, reply}, output {pass: boolean, reason: string}. */
  public static final String CONTRACT = "PRC-JUDGE-001";
  /**
   * The judge's token budget when not told: its prompt (the rubric, question and reply, a few
   * thousand tokens at most for an eval case) plus the contract's 400-token answer, with room to spare.
   */
  public static final long DEFAULT_TOKEN_BUDGET = 16_000;
  /** The judge's work order is number 90 of the case's turn 1: far past any turn's own work orders (classify, synthesize, retries). */
  public static final int WORK_ORDER_SEQ = 90;

  public JudgeRequest {
    Objects.requireNonNull(sessionId, "session_id");
    Objects.requireNonNull(agentClass, "agent_class");
    rubric = rubric == null ? "" : rubric;
    userText = userText == null ? "" : userText;
    reply = reply == null ? "" : reply;
  }
}
