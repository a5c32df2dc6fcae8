package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.model.ApprovalDecision;
import cp.model.Json;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link RecordedApprovals} decides from the record, and that a look that fails is only a look. */
class RecordedApprovalsTest {
  static final List<RecordedToolCall> RECORDED = List.of(
      new RecordedToolCall("write_file", Json.parse("{\"path\":\"HO2/a\"}"), Json.parse("\"written\""), false),
      new RecordedToolCall("read_file", Json.parse("{\"path\":\"x\"}"), Json.parse("\"refused\""), true));

  @Test
  void aToolTheRecordedTurnRan_isGranted_anyOtherDenied_byEvalReplay() {
    ApprovalDecision ran = RecordedApprovals.decisionFor("APR-1", "write_file", RECORDED);
    assertEquals(ApprovalDecision.GRANT, ran.decision());
    assertEquals(RecordedApprovals.DECIDED_BY, ran.decidedBy());
    assertEquals(ApprovalDecision.DENY, RecordedApprovals.decisionFor("APR-2", "read_file", RECORDED).decision(),
        "its only call ended in an error");
    assertEquals(ApprovalDecision.DENY, RecordedApprovals.decisionFor("APR-3", "gate_check", RECORDED).decision(),
        "never called in the record");
  }

  /** The session's state Query failing (here: no such session) answers nothing, instead of failing the case. */
  @Test
  void aStateQueryThatFails_answersNothing_andDoesNotThrow() {
    try (TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance()) {
      WorkflowClient client = env.getWorkflowClient();
      env.start();
      assertEquals(0, new RecordedApprovals(client, "SES-0000dead", RECORDED).decidePending());
    }
  }
}
