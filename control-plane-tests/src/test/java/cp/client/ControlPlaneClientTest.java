package cp.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ForwardingProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderReply;
import cp.model.PromptRequest;
import cp.model.SessionState;
import cp.model.SessionSummary;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: {@link ControlPlaneClient} as a library user gets it: built from nothing but a
 * {@code WorkflowClient} (defaults from {@code ClientDefaults}), start, turn, state, end,
 * progress, watch and list, with typed errors that name the session and the refusal code and
 * never mention {@code cpctl}. Runs against the real worker on the in-process Temporal service.
 */
class ControlPlaneClientTest {
  @TempDir Path home;
  private final CountDownLatch inFlight = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private PlaneFixture plane;

  @AfterEach
  void tearDown() {
    release.countDown();
    if (plane != null) {
      plane.close();
    }
  }

  private ControlPlaneClient offlinePlane() {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools);
    return ControlPlaneClient.newBuilder(plane.connection.client()).build();
  }

  /** A plane whose model holds its first call until the test releases it: a turn that stays running. */
  private ControlPlaneClient holdingPlane() {
    plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), new ForwardingProvider(new OfflineProvider()) {
      @Override
      public ProviderReply send(PromptRequest request) throws cp.gateway.ProviderException {
        if (inFlight.getCount() > 0) {
          inFlight.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.send(request);
      }
    }, PlaneRuntime::builtinTools);
    return ControlPlaneClient.newBuilder(plane.connection.client()).build();
  }

  private static void assertLibraryMessage(ClientException e) {
    assertFalse(e.getMessage().contains("cpctl"), "a library message mentions cpctl: " + e.getMessage());
  }

  @Test
  void builtFromAWorkflowClientAlone_startTurnStateEnd_andAnEndedSessionSaysSo() {
    ControlPlaneClient client = offlinePlane();
    String sid = client.start("admin");
    assertTrue(sid.matches("SES-[0-9a-f]{8}"), sid);
    TurnResult r = client.turn(sid, "hello");
    assertEquals("success", r.outcome());
    assertEquals(1, r.turn());
    SessionState s = client.state(sid);
    assertEquals("ADMIN", s.agentClass());
    assertEquals(1, s.turns());
    assertFalse(s.ended());

    SessionSummary sum = client.end(sid);
    assertEquals("end", sum.endReason());
    assertEquals(1, sum.turns());

    SessionEndedException turn = assertThrows(SessionEndedException.class, () -> client.turn(sid, "again"));
    assertTrue(turn.getMessage().startsWith("session " + sid + " has ended (end at "), turn.getMessage());
    assertEquals(ClientException.Kind.ENDED, turn.kind());
    assertEquals(sid, turn.sessionId());
    assertEquals("end", turn.summary().endReason());
    assertLibraryMessage(turn);
    SessionEndedException end = assertThrows(SessionEndedException.class, () -> client.end(sid));
    assertTrue(end.getMessage().startsWith("session " + sid + " has ended (end at "), end.getMessage());
    assertLibraryMessage(end);
    assertTrue(client.state(sid).ended(), "state still answers after the end");
  }

  @Test
  void refusals_areTypedWithTheSessionsCode_andNeverMentionCpctl() {
    ControlPlaneClient client = offlinePlane();
    // No catalog given: the session itself refuses an agent class it does not know, at once.
    String bad = client.start("ROOT");
    ClientException start = assertThrows(ClientException.class, () -> client.turn(bad, "hello"));
    assertEquals(ClientException.Kind.REFUSED, start.kind());
    assertTrue(start.getMessage().contains("could not start") && start.getMessage().contains("'ROOT' is unknown"),
        start.getMessage());
    assertEquals("unknown_agent_class", start.refusal().map(cp.model.Refusal::code).orElse(null), start::getMessage);
    assertEquals(bad, start.sessionId());
    assertLibraryMessage(start);
    ClientException state = assertThrows(ClientException.class, () -> client.state(bad));
    assertEquals(ClientException.Kind.REFUSED, state.kind(), state.getMessage());

    // A malformed agent class is refused here, before anything is started.
    ClientException malformed = assertThrows(ClientException.class, () -> client.start("no such agent"));
    assertEquals(ClientException.Kind.REFUSED, malformed.kind());
    assertLibraryMessage(malformed);

    String sid = client.start("ADMIN");
    ClientException tooLong = assertThrows(ClientException.class, () -> client.turn(sid, "x".repeat(100_001)));
    assertEquals(ClientException.Kind.REFUSED, tooLong.kind());
    assertEquals("text_too_long", tooLong.refusal().map(cp.model.Refusal::code).orElse(null), tooLong::getMessage);
    assertLibraryMessage(tooLong);
    ClientException empty = assertThrows(ClientException.class, () -> client.turn(sid, "  "));
    assertEquals(ClientException.Kind.REFUSED, empty.kind());
    assertLibraryMessage(empty);

    ClientException unknown = assertThrows(ClientException.class, () -> client.turn("SES-00000000", "hello"));
    assertEquals(ClientException.Kind.NOT_FOUND, unknown.kind());
    assertEquals("SES-00000000", unknown.sessionId());
    assertLibraryMessage(unknown);
    ClientException notAnId = assertThrows(ClientException.class, () -> client.state("chat-1"));
    assertEquals(ClientException.Kind.REFUSED, notAnId.kind());
  }

  @Test
  void progressAndWatch_followTheRunningTurn_untilItIsDone() throws Exception {
    ControlPlaneClient client = holdingPlane();
    String sid = client.start("ADMIN");
    assertEquals(Optional.empty(), client.progress(sid), "no turn runs yet");

    List<String> seenByTurn = new CopyOnWriteArrayList<>();
    CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> client.turn(sid, "hello", seenByTurn::add));
    assertTrue(inFlight.await(20, TimeUnit.SECONDS), "the turn's first model call never started");

    Optional<String> step = client.progress(sid);
    assertTrue(step.isPresent() && !step.get().isBlank(), "the running turn's step: " + step);
    assertEquals(step, client.progress(sid, 1));

    List<String> watched = new CopyOnWriteArrayList<>();
    CompletableFuture<OptionalInt> watch = CompletableFuture.supplyAsync(() -> client.watch(sid, watched::add));
    // Let the watch see the held step before the turn moves on.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (watched.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertFalse(watched.isEmpty(), "the watch reported the running step");
    release.countDown();

    TurnResult r = turn.get(30, TimeUnit.SECONDS);
    assertEquals("success", r.outcome());
    assertEquals(OptionalInt.of(1), watch.get(30, TimeUnit.SECONDS));
    assertEquals("done", watched.get(watched.size() - 1), "the watch ends with the turn: " + watched);
    assertFalse(seenByTurn.isEmpty(), "turn(.., onProgress) reported steps");
    for (List<String> steps : List.of(watched, seenByTurn)) {
      for (int i = 1; i < steps.size(); i++) {
        assertFalse(steps.get(i).equals(steps.get(i - 1)), "each step once: " + steps);
      }
    }
    System.out.println("ControlPlaneClientTest: watch saw " + watched + "; turn saw " + seenByTurn);

    assertEquals(Optional.of("done"), client.progress(sid, 1), "a finished turn's workflow says done");
    assertEquals(Optional.empty(), client.progress(sid), "no turn runs after it");
    assertEquals(OptionalInt.empty(), client.watch(sid, watched::add), "nothing to watch");
    assertEquals(Optional.empty(), client.progress(sid, 7), "a turn that never ran has no progress");
  }

  @Test
  void list_onAServiceWithoutVisibilityQueries_failsAtOnceSayingWhy() {
    ControlPlaneClient client = offlinePlane();
    client.start("ADMIN");
    long t0 = System.nanoTime();
    ClientException e = assertThrows(ClientException.class, client::list);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(ClientException.Kind.UNSUPPORTED, e.kind());
    assertTrue(e.getMessage().contains("ListWorkflowExecutions") && e.getMessage().contains("visibility"),
        e.getMessage());
    assertLibraryMessage(e);
    assertTrue(ms < Duration.ofSeconds(5).toMillis(), "answered in " + ms + " ms");
    assertNotNull(e.getCause());
  }
}
