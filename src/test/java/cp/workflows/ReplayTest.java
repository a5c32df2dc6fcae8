package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.model.SessionInput;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.worker.HistoryReplayer;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Committed histories must replay against the current workflow code; a changed workflow must
 * not. Run with {@code -Dcp.recordHistories=true} to re-record the histories (after a
 * deliberate, versioned workflow change), then commit them.
 */
class ReplayTest {
  static final Path DIR = Path.of("src/test/resources/histories");
  static final List<String> FILES = List.of("plain-turn.json", "tool-loop-turn.json", "gate-retry-turn.json",
      "degraded-session.json", "continued-session.json", "plain-session.json", "unlogged-degradation-session.json");

  @BeforeAll
  static void recordIfAsked() throws Exception {
    if (Boolean.getBoolean("cp.recordHistories")) {
      record();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain-turn.json", "tool-loop-turn.json", "gate-retry-turn.json", "degraded-session.json",
      "continued-session.json", "plain-session.json", "unlogged-degradation-session.json"})
  void committedHistory_replaysAgainstTheCurrentCode(String file) throws IOException {
    String json = Files.readString(DIR.resolve(file), StandardCharsets.UTF_8);
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replayJson(json);
      assertTrue(o.ok(), file + ": " + o.problem());
    }
  }

  @Test
  void everyScenarioHasACommittedHistory() {
    for (String f : FILES) {
      assertTrue(Files.isRegularFile(DIR.resolve(f)), "missing " + f + "; record with -Dcp.recordHistories=true");
    }
  }

  @Test
  void changedTurnWorkflow_failsReplayWithANonDeterminismError() throws Exception {
    String json = Files.readString(DIR.resolve("plain-turn.json"), StandardCharsets.UTF_8);
    try (HistoryReplayer changed = new HistoryReplayer(ChangedTurnWorkflowImpl.class)) {
      HistoryReplayer.Outcome o = changed.replayJson(json);
      assertFalse(o.ok());
      assertTrue(o.problem().contains("NonDeterministicException") || o.problem().contains("TMPRL1100"), o.problem());
    }
  }

  @Test
  void replayer_reportsAHistoryFromAnotherWorkflowTypeAsAFailure() throws IOException {
    String json = Files.readString(DIR.resolve("plain-turn.json"), StandardCharsets.UTF_8)
        .replace("\"TurnWorkflow\"", "\"NoSuchWorkflow\"");
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      assertFalse(replayer.replayJson(json).ok());
    }
  }

  /** A TurnWorkflow whose first step moved: attention before classify. */
  public static class ChangedTurnWorkflowImpl extends TurnWorkflowImpl {
    private final cp.activities.Ho2Activities ho2 = io.temporal.workflow.Workflow.newLocalActivityStub(
        cp.activities.Ho2Activities.class);

    @Override
    public TurnResult run(cp.model.TurnInput in) {
      ho2.attend(new cp.model.AttentionRequest(in.sessionId(), in.profile().agentClass(),
          in.profile().attentionTemplateId(), in.turn(), in.userMessage()));
      return super.run(in);
    }
  }

  // ------------------------------------------------------------------ recording

  static void record() throws Exception {
    Files.createDirectories(DIR);
    recordTurn("plain-turn.json", ho1 -> { }, "hello");
    recordTurn("tool-loop-turn.json", ho1 -> {
      AtomicInteger n = new AtomicInteger();
      ho1.synthesize = r -> n.incrementAndGet() == 1
          ? ho1.toolUse("list_packages", Json.object())
          : ho1.text("{\"response_text\":\"3 packages\"}");
    }, "what packages are installed?");
    recordTurn("gate-retry-turn.json", ho1 -> {
      AtomicInteger n = new AtomicInteger();
      ho1.synthesize = r -> n.incrementAndGet() == 1
          ? ho1.text("{\"response_text\":\"  \"}")
          : ho1.text("{\"response_text\":\"a real answer\"}");
    }, "question?");
    recordSession("degraded-session.json", "SES-0000dead", 0, ho1 -> ho1.failGateway = true, 1);
    recordSession("continued-session.json", "SES-0000c0de", 2, ho1 -> { }, 3);
    recordSession("plain-session.json", "SES-00001234", 0, ho1 -> { }, 2);
    recordSession("unlogged-degradation-session.json", "SES-0000dea1", 0, ho1 -> ho1.failGateway = true,
        session -> session.failDegradationLog = true, 1);
  }

  private static void recordTurn(String file, java.util.function.Consumer<FakeActivities.Ho1> script, String text) {
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), new FakeActivities.Session())) {
      String id = "SES-0000abcd/turn-0001";
      h.turnStub(id).run(new cp.model.TurnInput("SES-0000abcd", 1, text, 100_000, FakeActivities.profile(100_000, 50)));
      write(file, h.client.fetchHistory(id));
    }
  }

  private static void recordSession(String file, String sid, int canAfter,
      java.util.function.Consumer<FakeActivities.Ho1> script, int turns) {
    recordSession(file, sid, canAfter, script, session -> { }, turns);
  }

  private static void recordSession(String file, String sid, int canAfter,
      java.util.function.Consumer<FakeActivities.Ho1> script,
      java.util.function.Consumer<FakeActivities.Session> sessionScript, int turns) {
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    FakeActivities.Session session = new FakeActivities.Session();
    sessionScript.accept(session);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), session)) {
      SessionWorkflow s = h.sessionStub(sid);
      var first = WorkflowClient.start(s::run, new SessionInput(sid, "ADMIN", null, canAfter));
      for (int i = 1; i <= turns; i++) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).turn(new TurnRequest("turn " + i));
      }
      if (canAfter == 0) {
        h.client.newWorkflowStub(SessionWorkflow.class, sid).end();
      }
      write(file, h.client.fetchHistory(sid, first.getRunId()));
    }
  }

  private static void write(String file, WorkflowExecutionHistory h) {
    try {
      Files.writeString(DIR.resolve(file), h.toJson(true), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertEquals(file, file);
  }
}
