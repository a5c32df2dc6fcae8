package cp.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.gateway.StreamSink;
import cp.model.ContentBlock;
import cp.model.PromptRequest;
import cp.model.ReplyBatch;
import cp.model.TurnEvent;
import cp.model.TurnEventPage;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.model.WorkOrderIds;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import cp.workflows.TurnWorkflow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 2 on the embedded service: a turn's typed, numbered events (steps, reply deltas,
 * done), read by the Query {@code events} from any sequence number, also after the turn closed;
 * a streamed answer the gate rejects is retracted before the retry's; forged batches change
 * nothing a client is shown.
 */
class LiveTurnEndToEndTest {
  @TempDir Path home;

  static TurnEventPage events(PlaneFixture plane, String sid, int turn, long from) {
    return plane.connection.client().newUntypedWorkflowStub(WorkOrderIds.turnWorkflow(sid, turn))
        .query(TurnWorkflow.EVENTS, TurnEventPage.class, from);
  }

  /** All events from 1, page by page. */
  static List<TurnEvent> all(PlaneFixture plane, String sid, int turn) {
    List<TurnEvent> out = new ArrayList<>();
    long from = 1;
    while (true) {
      TurnEventPage p = events(plane, sid, turn, from);
      out.addAll(p.events());
      if (p.events().isEmpty() || p.done()) {
        return out;
      }
      from = p.nextSeq();
    }
  }

  /** The reply a client assembles from the events. */
  static String replay(List<TurnEvent> events) {
    return LiveText.replay(events);
  }

  static void assertNumbered(List<TurnEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      assertEquals(i + 1, events.get(i).seq(), "no gap, no duplicate: " + events);
    }
  }

  @Test
  void anOfflineTurn_streamsItsReplyInDeltas_andEndsWithTheResult_readableAfterItClosed() throws Exception {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      TurnResult r = plane.client.turn(sid, "Tell me how a durable workflow recovers after its worker dies");

      List<TurnEvent> events = all(plane, sid, 1);

      assertNumbered(events);
      TurnEvent last = events.get(events.size() - 1);
      assertEquals(TurnEvent.DONE, last.type());
      assertEquals(r.response(), last.text());
      assertEquals(TurnOutcome.SUCCESS, last.outcome());
      long deltas = events.stream().filter(e -> TurnEvent.TEXT_DELTA.equals(e.type())).count();
      assertTrue(deltas > 1, "the reply came in pieces: " + events);
      assertEquals(r.response(), replay(events));
      assertFalse(events.stream().anyMatch(e -> e.text() != null && e.text().contains("response_text")),
          "deltas of the reply text, never raw JSON: " + events);
      List<String> started = events.stream().filter(e -> TurnEvent.STEP_STARTED.equals(e.type()))
          .map(TurnEvent::step).toList();
      assertEquals(List.of("classify", "attention", "synthesize", "quality gate"), started);
      int firstDelta = indexOf(events, TurnEvent.TEXT_DELTA);
      assertTrue(firstDelta > events.indexOf(events.stream().filter(e -> "synthesize".equals(e.step())).findFirst()
          .orElseThrow()), "text streams within the synthesize step");

      com.fasterxml.jackson.databind.JsonNode raw = plane.connection.client()
          .newUntypedWorkflowStub(WorkOrderIds.turnWorkflow(sid, 1))
          .query(TurnWorkflow.EVENTS, com.fasterxml.jackson.databind.JsonNode.class, 1);
      try (var in = getClass().getClassLoader().getResourceAsStream("api/schemas/turn_event_page.schema.json")) {
        var schema = cp.model.Json.MAPPER.readTree(in);
        assertEquals(List.of(), new cp.contracts.SchemaValidator().validate(schema, raw), "the contract's schema: " + raw);
      }

      TurnEventPage rest = events(plane, sid, 1, 4);
      assertEquals(events.subList(3, events.size()), rest.events(), "resumed from 4: the rest, nothing twice");
      assertTrue(rest.done());
      TurnEventPage after = events(plane, sid, 1, rest.nextSeq());
      assertTrue(after.events().isEmpty());
      assertEquals(rest.nextSeq(), after.nextSeq());
    }
  }

  @Test
  void aToolTurn_showsTheToolAsRequestedAndFinished_betweenItsRounds() {
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      TurnResult r = plane.client.turn(sid, "what packages are installed?");
      assertEquals("list_packages", r.toolCalls().get(0).toolName());

      List<TurnEvent> events = all(plane, sid, 1);

      assertNumbered(events);
      List<String> shape = events.stream().filter(e -> !TurnEvent.TEXT_DELTA.equals(e.type()))
          .map(e -> e.type() + ":" + (e.tool() != null ? e.tool() : e.step())).toList();
      assertEquals(List.of("step_started:classify", "step_finished:classify", "step_started:attention",
          "step_finished:attention", "step_started:synthesize", "step_finished:synthesize",
          "tool_requested:list_packages", "tool_finished:list_packages", "step_started:synthesize round 2",
          "step_finished:synthesize round 2", "step_started:quality gate", "step_finished:quality gate", "done:null"),
          shape);
      assertEquals(r.response(), replay(events));
      TurnEvent requested = events.stream().filter(e -> TurnEvent.TOOL_REQUESTED.equals(e.type())).findFirst()
          .orElseThrow();
      assertEquals(r.toolCalls().get(0).woId(), requested.woId());
    }
  }

  @Test
  void aStreamedReplyTheGateRejects_isRetracted_thenTheRetrysReplyFollows() {
    AtomicInteger synth = new AtomicInteger();
    LlmProvider model = new Wrapped(new OfflineProvider()) {
      @Override
      ProviderReply synthesize(PromptRequest r, StreamSink sink) {
        if (synth.incrementAndGet() == 1) {
          String bad = "{\"response_text\": \"First try, which the gate will reject\", \"oops\": ";
          sink.text(bad.substring(0, 30));
          sink.text(bad.substring(30));
          return new ProviderReply(List.of(ContentBlock.text(bad)), 10, 10, "m", ProviderReply.STOP);
        }
        String good = "{\"response_text\": \"Second try, accepted.\"}";
        sink.text(good);
        return new ProviderReply(List.of(ContentBlock.text(good)), 10, 10, "m", ProviderReply.STOP);
      }
    };
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      TurnResult r = plane.client.turn(sid, "hello there");
      assertEquals("Second try, accepted.", r.response(), r::toString);

      List<TurnEvent> events = all(plane, sid, 1);

      assertNumbered(events);
      String firstShown = "";
      int retract = -1;
      for (int i = 0; i < events.size(); i++) {
        if (TurnEvent.RETRACTED.equals(events.get(i).type())) {
          retract = i;
          firstShown = replay(events.subList(0, i));
          break;
        }
      }
      assertEquals("First try, which the gate will reject", firstShown, "shown, then retracted: " + events);
      assertEquals(0, events.get(retract).keep());
      assertEquals("Second try, accepted.", replay(events));
      assertTrue(indexOf(events, TurnEvent.TEXT_DELTA, retract) > retract, "the retry's text follows the retraction");
    }
  }

  @Test
  void forgedBatches_fromOutsideOrWithTheWrongKey_areDropped() throws Exception {
    CountDownLatch inCall = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    LlmProvider model = new Wrapped(new OfflineProvider()) {
      @Override
      ProviderReply synthesize(PromptRequest r, StreamSink sink) throws ProviderException {
        String good = "{\"response_text\": \"The real answer.\"}";
        sink.text(good.substring(0, 25));
        inCall.countDown();
        await(release);
        sink.text(good.substring(25));
        return new ProviderReply(List.of(ContentBlock.text(good)), 10, 10, "m", ProviderReply.STOP);
      }
    };
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      CompletableFuture<TurnResult> turn = CompletableFuture.supplyAsync(() -> plane.client.turn(sid, "hello"));
      assertTrue(inCall.await(30, TimeUnit.SECONDS));
      String turnId = WorkOrderIds.turnWorkflow(sid, 1);
      String wo = WorkOrderIds.workOrder(sid, 1, 2);
      var stub = plane.connection.client().newUntypedWorkflowStub(turnId);
      stub.signal(TurnWorkflow.REPLY_STREAM, new ReplyBatch(turnId + "/" + wo + "/round-1", "guessed-key", 1, 0,
          "FORGED"));
      stub.signal(TurnWorkflow.REPLY_STREAM, new ReplyBatch("someone-else", null, 9, 0, "FORGED TOO"));
      release.countDown();
      TurnResult r = turn.get(60, TimeUnit.SECONDS);

      List<TurnEvent> events = all(plane, sid, 1);

      assertEquals("The real answer.", r.response());
      assertEquals("The real answer.", replay(events));
      assertFalse(events.toString().contains("FORGED"), events.toString());
      assertFalse(events.stream().anyMatch(e -> TurnEvent.RETRACTED.equals(e.type())), events.toString());
    }
  }

  private static int indexOf(List<TurnEvent> events, String type) {
    return indexOf(events, type, -1);
  }

  private static int indexOf(List<TurnEvent> events, String type, int after) {
    for (int i = after + 1; i < events.size(); i++) {
      if (type.equals(events.get(i).type())) {
        return i;
      }
    }
    return -1;
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The offline model, except for synthesize calls, which a test answers. */
  abstract static class Wrapped implements LlmProvider {
    private final LlmProvider offline;

    Wrapped(LlmProvider offline) {
      this.offline = offline;
    }

    abstract ProviderReply synthesize(PromptRequest r, StreamSink sink) throws ProviderException;

    @Override
    public String id() {
      return offline.id();
    }

    @Override
    public ProviderReply send(PromptRequest request) throws ProviderException {
      return stream(request, StreamSink.NONE);
    }

    @Override
    public ProviderReply stream(PromptRequest request, StreamSink sink) throws ProviderException {
      return request.contractId().startsWith(OfflineProvider.SYNTHESIZE_PREFIX) ? synthesize(request, sink)
          : offline.send(request);
    }
  }
}
