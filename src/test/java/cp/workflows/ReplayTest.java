package cp.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import cp.model.SessionInput;
import cp.model.TurnRequest;
import cp.model.TurnResult;
import cp.worker.HistoryReplayer;
import cp.worker.PlaneFixture;
import cp.worker.TemporalOptions;
import cp.worker.codec.PayloadKey;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Committed histories must replay against the current workflow code; a changed workflow must
 * not. Run with {@code -Dcp.recordHistories=true} to re-record the histories (after a
 * deliberate, versioned workflow change), or {@code -Dcp.recordHistories=FILE[,FILE]} for some
 * of them, then commit them.
 */
class ReplayTest {
  static final Path DIR = Path.of("src/test/resources/histories");
  /** A turn recorded with payload encryption on, under {@link #TEST_PAYLOAD_KEY}. */
  static final String ENCRYPTED_FILE = "encrypted-turn.json";
  /** The key of {@link #ENCRYPTED_FILE}: public, for this test only (bytes 0..31). */
  static final PayloadKey TEST_PAYLOAD_KEY = PayloadKey.parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
  /** The user's message in {@link #ENCRYPTED_FILE}; it must not be readable there. */
  static final String ENCRYPTED_MESSAGE = "my locker combination is 31-7-22";
  static final List<String> FILES = List.of("plain-turn.json", "tool-loop-turn.json", "gate-retry-turn.json",
      "degraded-session.json", "continued-session.json", "plain-session.json", "unlogged-degradation-session.json",
      ENCRYPTED_FILE);

  private static Set<String> toRecord = Set.of();

  @BeforeAll
  static void recordIfAsked() throws Exception {
    String which = System.getProperty("cp.recordHistories", "false").trim();
    if (which.equals("true")) {
      toRecord = Set.copyOf(FILES);
    } else if (!which.equals("false") && !which.isEmpty()) {
      toRecord = Set.of(which.split("\\s*,\\s*"));
    }
    if (!toRecord.isEmpty()) {
      record();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain-turn.json", "tool-loop-turn.json", "gate-retry-turn.json", "degraded-session.json",
      "continued-session.json", "plain-session.json", "unlogged-degradation-session.json"})
  // encrypted-turn.json needs its key: see encryptedHistory_replaysWithItsKey_andNamesTheKeyWithoutIt
  void committedHistory_replaysAgainstTheCurrentCode(String file) throws IOException {
    String json = Files.readString(DIR.resolve(file), StandardCharsets.UTF_8);
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replayJson(json);
      assertTrue(o.ok(), file + ": " + o.problem());
    }
  }

  @Test
  void encryptedHistory_replaysWithItsKey_andNamesTheKeyWithoutIt() throws IOException {
    String json = Files.readString(DIR.resolve(ENCRYPTED_FILE), StandardCharsets.UTF_8);
    WorkflowExecutionHistory history = WorkflowExecutionHistory.fromJson(json);
    assertFalse(PlaneFixture.mentions(history, ENCRYPTED_MESSAGE), "the committed history is not encrypted");
    assertTrue(PlaneFixture.mentions(history, "binary/encrypted"));

    try (HistoryReplayer replayer = new HistoryReplayer(TemporalOptions.dataConverter(Optional.of(TEST_PAYLOAD_KEY)))) {
      HistoryReplayer.Outcome o = replayer.replay(history);
      assertTrue(o.ok(), ENCRYPTED_FILE + ": " + o.problem());
    }
    try (HistoryReplayer replayer = new HistoryReplayer()) {
      HistoryReplayer.Outcome o = replayer.replay(history);
      assertFalse(o.ok());
      assertTrue(o.problem().contains("key id " + TEST_PAYLOAD_KEY.id() + ") but CP_PAYLOAD_KEY is not set"),
          o.problem());
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
    recordTurn(ENCRYPTED_FILE, ho1 -> { }, ENCRYPTED_MESSAGE, Optional.of(TEST_PAYLOAD_KEY));
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
    recordTurn(file, script, text, Optional.empty());
  }

  private static void recordTurn(String file, java.util.function.Consumer<FakeActivities.Ho1> script, String text,
      Optional<PayloadKey> key) {
    if (!toRecord.contains(file)) {
      return;
    }
    FakeActivities.Ho1 ho1 = new FakeActivities.Ho1();
    script.accept(ho1);
    try (WorkflowHarness h = new WorkflowHarness(ho1, new FakeActivities.Ho2(), new FakeActivities.Session(), 600,
        true, key)) {
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
    if (!toRecord.contains(file)) {
      return;
    }
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
