package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * The argument of the session's {@code approve} Update (issue 15):
 * {@code {"approval_id": string, "decision": "grant"|"deny", "decided_by": string, "reason": string?}}.
 *
 * <p>As with {@link TurnRequest}, reading never fails: an argument of another shape reads as a
 * decision whose {@link #problem} names what is wrong, and the validator refuses it
 * ({@code approval_refused}) instead of a converter error reaching the client.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonDeserialize(using = ApprovalDecision.Reader.class)
public record ApprovalDecision(String approvalId, String decision, String decidedBy, String reason,
    @JsonIgnore Refusal.Problem problem) {
  public static final String GRANT = "grant";
  public static final String DENY = "deny";
  /** The shape the argument has, as a refusal names it. */
  public static final String SHAPE = "approve expects {\"approval_id\": string, \"decision\": \"grant\"|\"deny\","
      + " \"decided_by\": string, \"reason\": string (optional)}";
  /** Longest approver name: a person's or service account's name, not a document. */
  public static final int MAX_DECIDED_BY_CHARS = 200;
  /** Longest reason: a sentence or a short paragraph, kept whole in the ledger and the model's tool_result. */
  public static final int MAX_REASON_CHARS = 2000;
  private static final Set<String> FIELDS = Set.of("approval_id", "decision", "decided_by", "reason");

  public ApprovalDecision(String approvalId, String decision, String decidedBy, String reason) {
    this(approvalId, decision, decidedBy, reason, null);
  }

  public boolean grants() {
    return GRANT.equals(decision);
  }

  /** What is wrong with this decision's fields (not the approval it names), or empty. */
  public Optional<Refusal.Problem> fieldProblem() {
    if (problem != null) {
      return Optional.of(problem);
    }
    if (approvalId == null || approvalId.isBlank()) {
      return bad(SHAPE + "; approval_id is missing", Refusal.Code.MISSING_FIELD, "approval_id");
    }
    if (!GRANT.equals(decision) && !DENY.equals(decision)) {
      return bad("decision must be \"grant\" or \"deny\", got " + (decision == null ? "nothing" : "'"
          + cut(decision, 40) + "'"), Refusal.Code.INVALID_DECISION, "decision");
    }
    if (decidedBy == null || decidedBy.isBlank()) {
      return bad("decided_by is missing: say who decides (a person's name), it is recorded", Refusal.Code.MISSING_FIELD,
          "decided_by");
    }
    if (decidedBy.length() > MAX_DECIDED_BY_CHARS || DisplayText.needsEscape(decidedBy)) {
      return bad("decided_by must be a name of at most " + MAX_DECIDED_BY_CHARS + " characters without control"
          + " or bidi characters", Refusal.Code.INVALID_DECISION, "decided_by");
    }
    if (reason != null && reason.length() > MAX_REASON_CHARS) {
      return bad("reason has " + reason.length() + " characters; at most " + MAX_REASON_CHARS + " are kept",
          Refusal.Code.INVALID_DECISION, "reason");
    }
    return Optional.empty();
  }

  private static Optional<Refusal.Problem> bad(String message, Refusal.Code code, String field) {
    return Optional.of(new Refusal.Problem(message, Refusal.of(code, field)));
  }

  private static String cut(String s, int max) {
    return s.length() > max ? s.substring(0, max) + "…" : s;
  }

  /** Reads any JSON value; what is wrong with it goes into {@code problem}, never into an exception. */
  public static final class Reader extends JsonDeserializer<ApprovalDecision> {
    @Override
    public ApprovalDecision deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
      JsonNode n = p.readValueAsTree();
      if (n == null || !n.isObject()) {
        return invalid(SHAPE + "; got " + Refusal.kind(n), Refusal.Code.WRONG_TYPE, null);
      }
      for (Iterator<String> names = n.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!FIELDS.contains(name)) {
          return invalid(SHAPE + "; got field '" + cut(name, 60) + "'", Refusal.Code.UNKNOWN_FIELD, name);
        }
        JsonNode v = n.get(name);
        if (!v.isNull() && !v.isTextual()) {
          return invalid(SHAPE + "; field '" + name + "' is " + Refusal.kind(v), Refusal.Code.WRONG_TYPE, name);
        }
      }
      return new ApprovalDecision(text(n, "approval_id"), text(n, "decision"), text(n, "decided_by"),
          text(n, "reason"), null);
    }

    private static String text(JsonNode n, String field) {
      JsonNode v = n.get(field);
      return v == null || v.isNull() ? null : v.asText();
    }

    private static ApprovalDecision invalid(String message, Refusal.Code code, String field) {
      return new ApprovalDecision(null, null, null, null, new Refusal.Problem(message, Refusal.of(code, field)));
    }
  }
}
