package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.JudgeOutcome;
import cp.model.JudgeRequest;
import cp.worker.HistoryReplayer;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.workflows.EvalJudgeWorkflow;
import cp.workflows.EvalJudgeWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.WorkflowExecutionHistory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge workflow's recorded history (issue 25 §5) replays against the current code, so a later
 * change to its commands must go behind {@code Workflow.getVersion}. {@code eval-judge.json} was
 * recorded by this test's recorder on the offline model; run with
 * {@code -Dcp.recordHistories=eval-judge.json} to record it again (only for a versioned change).
 */
class EvalJudgeReplayTest {
  static final Path FILE = Path.of("src/test/resources/histories/eval-judge.json");

  @TempDir
  Path home;

  /** Runs one judge work order on a real plane (offline model) and returns its history. */
  private WorkflowExecutionHistory judgeOnce() {
    Path resources = home.resolve("resources");
    JudgeResources.prepare(java.util.Optional.empty(), resources);
    Map<String, String> env = PlaneFixture.env(home, Map.of("CP_RESOURCES_DIR", resources.toString()));
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      String id = sid + "/judge";
      WorkflowClient client = plane.connection.client();
      EvalJudgeWorkflow judge = client.newWorkflowStub(EvalJudgeWorkflow.class, WorkflowOptions.newBuilder()
          .setWorkflowId(id).setTaskQueue(plane.config.worker().taskQueue()).build());
      JudgeOutcome out = judge.judge(new JudgeRequest(sid, "ADMIN", EvalScope.TENANT, "It says \"hello\".", "hi",
          "hello there", JudgeRequest.DEFAULT_TOKEN_BUDGET));
      assertTrue(out.pass(), out.reason());
      assertTrue(out.error() == null, out.error());
      return client.fetchHistory(id);
    }
  }

  @Test
  void theCommittedJudgeHistory_replays_andSoDoesOneRecordedNow() throws Exception {
    if (System.getProperty("cp.recordHistories", "").contains(FILE.getFileName().toString())) {
      Files.writeString(FILE, judgeOnce().toJson(true), StandardCharsets.UTF_8);
    }
    assertTrue(Files.isRegularFile(FILE), "missing " + FILE + "; record with -Dcp.recordHistories=eval-judge.json");
    try (HistoryReplayer replayer = new HistoryReplayer(EvalJudgeWorkflowImpl.class)) {
      HistoryReplayer.Outcome committed = replayer.replayJson(Files.readString(FILE, StandardCharsets.UTF_8));
      assertTrue(committed.ok(), committed.problem());
      assertEquals(EvalJudgeWorkflow.TYPE, committed.workflowType());
      HistoryReplayer.Outcome now = replayer.replay(judgeOnce());
      assertTrue(now.ok(), now.problem());
    }
  }

  @Test
  void aChangedJudgeWorkflow_failsReplay() throws Exception {
    try (HistoryReplayer replayer = new HistoryReplayer(ChangedJudge.class)) {
      HistoryReplayer.Outcome o = replayer.replayJson(Files.readString(FILE, StandardCharsets.UTF_8));
      assertFalse(o.ok(), "a judge that no longer calls the model must not replay the recorded history");
    }
  }

  /** The judge, changed: it answers without its work order. */
  public static final class ChangedJudge implements EvalJudgeWorkflow {
    @Override
    public JudgeOutcome judge(JudgeRequest request) {
      return new JudgeOutcome(true, "changed", 0.0, null, null);
    }
  }
}
