package example;

import cp.client.ClientException;
import cp.client.ControlPlaneClient;
import cp.model.ClientDefaults;
import cp.model.Refusal;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Drives one Control Plane session with nothing but control-plane-client: starts an ADMIN session,
 * sends two turns (the second with its progress steps), reads the session's state, ends it, and
 * shows three refusals: a start with an agent class the plane does not have, a message over the
 * agent's size limit, and a turn after the end. Exits 0 when everything behaved as
 * docs/client-contract.md says, 1 (after an UNEXPECTED line) otherwise.
 *
 * <p>Environment: TEMPORAL_ADDRESS (default 127.0.0.1:7233), TEMPORAL_NAMESPACE (default
 * "default"), CP_TASK_QUEUE (default "control-plane"), the same names the plane's worker reads.
 */
public final class SessionExample {
  private SessionExample() {}

  public static void main(String[] args) {
    Map<String, String> env = System.getenv();
    String address = env.getOrDefault("TEMPORAL_ADDRESS", "127.0.0.1:7233");
    String namespace = env.getOrDefault("TEMPORAL_NAMESPACE", "default");
    String taskQueue = env.getOrDefault("CP_TASK_QUEUE", ClientDefaults.TASK_QUEUE);

    WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(address).build());
    boolean ok;
    try {
      WorkflowClient temporal = WorkflowClient.newInstance(service,
          WorkflowClientOptions.newBuilder().setNamespace(namespace).build());
      ControlPlaneClient cp = ControlPlaneClient.newBuilder(temporal).taskQueue(taskQueue).build();
      ok = run(cp);
    } finally {
      service.shutdown();
    }
    System.exit(ok ? 0 : 1);
  }

  static boolean run(ControlPlaneClient cp) {
    String sid = cp.start("ADMIN");
    System.out.println("started " + sid + " (agent ADMIN)");

    TurnResult first = cp.turn(sid, "hello");
    print(first, "hello");
    List<String> steps = new ArrayList<>();
    TurnResult second = cp.turn(sid, "what packages are installed?", steps::add);
    print(second, "what packages are installed?");
    System.out.println("steps of turn " + second.turn() + ": " + String.join(", ", steps));

    SessionState state = cp.state(sid);
    System.out.println("state: turns=" + state.turns() + " tokens_used=" + state.tokensUsed() + " ended="
        + state.ended());
    int limit = state.profile().maxMessageBytes();

    SessionSummary summary = cp.end(sid);
    System.out.println("ended " + sid + ": end_reason=" + summary.endReason() + " turns=" + summary.turns()
        + " tokens_used=" + summary.tokensUsed());

    boolean ok = first.turn() == 1 && second.turn() == 2 && state.turns() == 2 && !state.ended()
        && "end".equals(summary.endReason());

    // Refusal 1: an agent class the plane's catalog does not have. The session refuses its own
    // start at once; the next call on it says why, with the stable code unknown_agent_class.
    ok &= refused("start with agent class ROOT", ClientException.Kind.REFUSED, "unknown_agent_class", () -> {
      String bad = cp.start("ROOT");
      return cp.turn(bad, "hello");
    });
    // Refusal 2: a message one byte over the agent's budget.max_message_bytes (from its profile).
    String sid2 = cp.start("ADMIN");
    ok &= refused("turn of " + (limit + 1) + " bytes", ClientException.Kind.REFUSED, "text_too_long",
        () -> cp.turn(sid2, "x".repeat(limit + 1)));
    cp.end(sid2);
    // Refusal 3: a turn after the end: "session SES-… has ended (end at …: ended by its user)".
    ok &= refused("turn after end", ClientException.Kind.ENDED, "session_ended", () -> cp.turn(sid, "still there?"));

    SessionState after = cp.state(sid);
    System.out.println("state after end: turns=" + after.turns() + " ended=" + after.ended() + " end_reason="
        + after.endReason());
    ok &= after.ended() && "end".equals(after.endReason());
    System.out.println(ok ? "done: the session behaved as the contract says" : "UNEXPECTED: see above");
    return ok;
  }

  private static void print(TurnResult r, String text) {
    System.out.println("turn " + r.turn() + " [" + r.outcome() + "] > " + text);
    System.out.println("reply: " + r.response());
  }

  /** Runs {@code call}, which must fail with {@code kind} and refusal {@code code}; prints what it said. */
  private static boolean refused(String what, ClientException.Kind kind, String code, Supplier<?> call) {
    try {
      call.get();
      System.out.println("UNEXPECTED: " + what + " was not refused");
      return false;
    } catch (ClientException e) {
      String got = e.refusal().map(Refusal::code).orElse("-");
      System.out.println("refused (" + what + "): " + e.kind() + " " + got + ": " + e.getMessage());
      if (e.kind() != kind || !code.equals(got)) {
        System.out.println("UNEXPECTED: expected " + kind + " " + code);
        return false;
      }
      return true;
    }
  }
}
