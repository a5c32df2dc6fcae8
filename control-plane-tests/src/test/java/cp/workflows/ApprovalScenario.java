package cp.workflows;

import cp.model.AgentProfile;
import cp.model.Json;
import cp.model.PendingApproval;
import cp.model.ToolApproval;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The approval tests' shared scene: ADMIN with write_file under approval, a model that writes once, the wait. */
final class ApprovalScenario {
  private ApprovalScenario() {}

  /** ADMIN's test profile with read_file and write_file, write_file waiting {@code timeoutSeconds} for a person. */
  static AgentProfile writeToolProfile(long timeoutSeconds, long turnDeadlineSeconds, List<String> approvers) {
    AgentProfile p = FakeActivities.profile(100_000, 50);
    return new AgentProfile(p.agentClass(), p.agentId(), p.frameworkId(), p.attentionTemplateId(),
        List.of("read_file", "write_file"), p.sessionTokenLimit(), p.turnLimit(), p.timeoutSeconds(),
        p.idleTimeoutSeconds(), p.woTokenBudget(), p.woTurnLimit(), p.woTimeoutSeconds(), p.maxMessageBytes(),
        p.maxRetries(), p.maxResponseChars(), turnDeadlineSeconds,
        List.of(new ToolApproval("write_file", timeoutSeconds, false)), approvers, 0);
  }

  /** The model asks for one write_file in its first synthesize round, then answers "done". */
  static void writesOnceThenAnswers(FakeActivities.Ho1 ho1) {
    AtomicInteger round = new AtomicInteger();
    ho1.synthesize = r -> round.incrementAndGet() == 1
        ? ho1.toolUse("write_file", Json.parse("{\"path\":\"HO2/notes.md\",\"content\":\"a\\nb\\n\"}"))
        : ho1.text("{\"response_text\":\"done\"}");
  }

  /** The first approval the session lists as pending, waiting up to 20 s for one. */
  static PendingApproval awaitPending(SessionWorkflow s) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < until) {
      var st = s.state();
      if (st != null && !st.pendingApprovals().isEmpty()) {
        return st.pendingApprovals().get(0);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no approval became pending");
  }
}
