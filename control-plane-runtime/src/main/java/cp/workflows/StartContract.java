package cp.workflows;

import cp.model.AgentClassName;
import cp.model.AgentProfile;
import cp.model.Refusal;
import cp.model.SessionInput;
import cp.model.WorkOrderIds;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * Issue 12: what a session's start must be (from {@link SessionVersions#CONTRACT_DEFENCE} 1 on).
 * A start input that is not a session's fails the workflow at once, non-retryable, naming the
 * field ({@code start_refused}), instead of failing its first task for ever (a converter error)
 * or running a session no tool can find (a workflow id other than its session id) or show (an
 * agent class not as the catalog names it). Deterministic: the only command is the side-effect
 * marker that records the workflow id, and the catalog's answer comes from the profile's local
 * activity.
 */
final class StartContract {
  private StartContract() {}

  /** Refuses a start input that is not a session's, in the contract's order of checks. */
  static void refuseBadStart(SessionInput in) {
    if (in == null) {
      throw startRefused("start input is missing; a session starts with {\"session_id\": string, \"agent_class\":"
          + " string}", Refusal.of(Refusal.Code.MISSING_FIELD));
    }
    if (in.problem() != null) {
      throw startRefused(in.problem().message(), in.problem().refusal());
    }
    if (in.carried() != null && Workflow.getInfo().getContinuedExecutionRunId().isEmpty()) {
      // The state holds the agent's profile (budgets, tools, approvals): taken from a client, it would
      // let the client govern its own session. Only the session's own continue-as-new passes it.
      throw startRefused("start input: carried is the session's own state, which only the session passes to its next"
          + " run when it continues as new; a client must not send it (start the session without it)",
          Refusal.of(Refusal.Code.UNKNOWN_FIELD, "carried"));
    }
    // Recorded (a side-effect marker), not read on each replay: an offline replayer runs a history
    // file under a made-up workflow id, and would otherwise refuse a start the service accepted.
    String workflowId = Workflow.sideEffect(String.class, () -> Workflow.getInfo().getWorkflowId());
    if (in.sessionId() == null) {
      throw startRefused("start input: session_id is missing (it must be the workflow id, '" + workflowId + "')",
          Refusal.of(Refusal.Code.MISSING_FIELD, "session_id"));
    }
    if (!in.sessionId().equals(workflowId)) {
      throw startRefused("start input: session_id '" + in.sessionId() + "' is not the workflow id '" + workflowId
          + "'; a session's workflow id must be its session_id, or no tool can find it",
          Refusal.of(Refusal.Code.WORKFLOW_ID_MISMATCH, "session_id"));
    }
    if (!WorkOrderIds.SESSION_ID.matcher(in.sessionId()).matches()) {
      throw startRefused("start input: session_id '" + in.sessionId() + "' is not a session id (expected SES- and 8"
          + " hex digits, e.g. SES-1a2b3c4d)", Refusal.of(Refusal.Code.INVALID_SESSION_ID, "session_id"));
    }
    if (in.agentClass() == null) {
      throw startRefused("start input: agent_class is missing (an agent class as the catalog names it, upper-case,"
          + " e.g. ADMIN)", Refusal.of(Refusal.Code.MISSING_FIELD, "agent_class"));
    }
    if (!AgentClassName.isValid(in.agentClass())) {
      throw startRefused("start input: agent_class '" + in.agentClass() + "' is not an agent class: agent classes"
          + " are upper-case letters, digits and '_' as the catalog names them"
          + AgentClassName.suggestion(in.agentClass()).map(s -> " (did you mean '" + s + "'?)").orElse(""),
          Refusal.of(Refusal.Code.INVALID_AGENT_CLASS, "agent_class"));
    }
  }

  /** The agent's profile; an agent class the catalog does not have refuses the start, naming the known ones. */
  static AgentProfile profileOrRefuse(java.util.function.Supplier<AgentProfile> load, String agentClass) {
    try {
      return load.get();
    } catch (ActivityFailure e) {
      if (e.getCause() instanceof ApplicationFailure af && Refusal.UNKNOWN_AGENT_CLASS.equals(af.getType())) {
        throw startRefused("start input: agent_class '" + agentClass + "' is unknown" + known(af),
            Refusal.of(Refusal.Code.UNKNOWN_AGENT_CLASS, "agent_class"));
      }
      throw e;
    }
  }

  /** " (known: ADMIN, RESIDENT)" from the activity's details, or nothing when they are unreadable. */
  private static String known(ApplicationFailure af) {
    try {
      List<?> classes = af.getDetails().get(0, List.class);
      return classes == null || classes.isEmpty() ? "" : " (known: " + String.join(", ",
          classes.stream().map(String::valueOf).toList()) + ")";
    } catch (RuntimeException unreadable) {
      return "";
    }
  }

  private static ApplicationFailure startRefused(String message, Refusal refusal) {
    ApplicationFailure af = ApplicationFailure.newNonRetryableFailure(message, Refusal.START_REFUSED, refusal);
    af.setStackTrace(new StackTraceElement[0]);
    return af;
  }
}
