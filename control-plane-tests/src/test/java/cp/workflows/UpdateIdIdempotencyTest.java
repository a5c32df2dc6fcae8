package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import cp.model.SessionState;
import cp.model.TurnResult;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Client contract (docs/client-contract.md, "Update ids"): a {@code turn} Update retried with the
 * same update id runs once, whether the retry arrives after the first finished or while it runs,
 * and returns the first request's result; a new id is a new turn. This is what ControlPlaneClient
 * relies on when it re-sends a turn with the same id, and what a foreign client is told to do.
 */
class UpdateIdIdempotencyTest {
  static final String SID = "SES-1d1d1d1d";
  FakeActivities.Ho1 ho1;
  FakeActivities.Ho2 ho2;
  WorkflowHarness h;

  @BeforeEach
  void setUp() {
    ho1 = new FakeActivities.Ho1();
    ho2 = new FakeActivities.Ho2();
    h = new WorkflowHarness(ho1, ho2, new FakeActivities.Session(), 600, false, java.util.Optional.empty());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private WorkflowStub startForeign() {
    WorkflowStub stub = h.client.newUntypedWorkflowStub("SessionWorkflow", WorkflowOptions.newBuilder()
        .setTaskQueue(WorkflowHarness.QUEUE).setWorkflowId(SID).build());
    stub.start(Map.of("session_id", SID, "agent_class", "ADMIN"));
    return stub;
  }

  private static UpdateOptions<TurnResult> turn(String updateId, WorkflowUpdateStage stage) {
    return UpdateOptions.newBuilder(TurnResult.class).setUpdateName(SessionWorkflow.TURN).setUpdateId(updateId)
        .setWaitForStage(stage).build();
  }

  /** Turns whose chain completed, as the ledger holds them (one WO_CHAIN_COMPLETE per turn). */
  private long chainsCompleted() {
    return ho2.types().stream().filter("WO_CHAIN_COMPLETE"::equals).count();
  }

  @Test
  void aTurnRetriedWithTheSameUpdateIdAfterItFinished_runsOnce() {
    WorkflowStub stub = startForeign();
    TurnResult first = stub.startUpdate(turn("turn-a", WorkflowUpdateStage.COMPLETED), Map.of("text", "hello"))
        .getResult();
    long roundsAfterFirst = ho1.rounds.size();
    long startsAfterFirst = chainsCompleted();
    TurnResult again = stub.startUpdate(turn("turn-a", WorkflowUpdateStage.COMPLETED), Map.of("text", "hello"))
        .getResult();

    assertEquals(first, again, "the retry returns the first request's result");
    assertEquals(1, again.turn());
    assertEquals(roundsAfterFirst, ho1.rounds.size(), "no model call for the retry");
    assertEquals(startsAfterFirst, chainsCompleted(), "nothing written for the retry");
    assertEquals(1, stub.query("state", SessionState.class).turns());
    TurnResult otherText = stub.startUpdate(turn("turn-a", WorkflowUpdateStage.COMPLETED),
        Map.of("text", "something else")).getResult();
    assertEquals(first, otherText, "an id reused with another argument still returns the first result");

    TurnResult next = stub.startUpdate(turn("turn-b", WorkflowUpdateStage.COMPLETED), Map.of("text", "hello"))
        .getResult();
    assertEquals(2, next.turn(), "a new update id is a new turn");
    assertNotEquals(roundsAfterFirst, ho1.rounds.size());
  }

  @Test
  void aTurnRetriedWithTheSameUpdateIdWhileItRuns_attachesToIt() throws Exception {
    WorkflowStub stub = startForeign();
    ho1.hangSynthesize = new CountDownLatch(1);
    WorkflowUpdateHandle<TurnResult> first = stub.startUpdate(turn("turn-a", WorkflowUpdateStage.ACCEPTED),
        Map.of("text", "hello"));
    WorkflowUpdateHandle<TurnResult> retry = stub.startUpdate(turn("turn-a", WorkflowUpdateStage.ACCEPTED),
        Map.of("text", "hello"));
    ho1.hangSynthesize.countDown();
    TurnResult a = first.getResultAsync().get(20, TimeUnit.SECONDS);
    TurnResult b = retry.getResultAsync().get(20, TimeUnit.SECONDS);

    assertEquals(a, b);
    assertEquals(1, a.turn());
    assertEquals(1, stub.query("state", SessionState.class).turns(), "one turn, not two");
    assertEquals(1, chainsCompleted(), "one WO_CHAIN_COMPLETE in the ledger");
    assertEquals(1, ho1.synthesizeRounds(), "one synthesize round");
    assertEquals(1, ho2.attention.size(), "one attention pass");
  }
}
