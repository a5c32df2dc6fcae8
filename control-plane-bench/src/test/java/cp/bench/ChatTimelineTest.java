package cp.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.bench.ChatTimeline.Call;
import cp.bench.ChatTimeline.Mark;
import cp.bench.ChatTimeline.Step;
import cp.model.EventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** B7's step table: a turn's span cut into consecutive steps from the ledgers', provider's and chat's times. */
class ChatTimelineTest {
  private static final Instant T0 = Instant.parse("2026-11-26T08:00:00Z");
  private static final String CLASSIFY = "WO-1a2b3c4d-0002-01";
  private static final String SYNTHESIZE = "WO-1a2b3c4d-0002-02";

  private static Instant at(double ms) {
    return T0.plusNanos((long) (ms * 1_000_000));
  }

  private static Mark mark(double ms, EventType type, String wo) {
    return new Mark(at(ms), type, 2, wo);
  }

  /** A turn of two work orders with known gaps: every step gets exactly its gap, and they add up to the span. */
  @Test
  void twoWorkOrders_eachStepIsItsGap_andTheStepsSumToTheSpan() {
    List<Mark> marks = List.of(
        mark(40, EventType.WO_DISPATCHED, CLASSIFY), mark(55, EventType.WO_EXECUTING, CLASSIFY), mark(270, EventType.WO_COMPLETED, CLASSIFY),
        mark(300, EventType.WO_DISPATCHED, SYNTHESIZE), mark(312, EventType.WO_EXECUTING, SYNTHESIZE),
        mark(530, EventType.WO_COMPLETED, SYNTHESIZE), mark(536, EventType.WO_CHAIN_COMPLETE, null),
        // Another turn's marks are not this turn's.
        new Mark(at(10), EventType.WO_DISPATCHED, 1, "WO-1a2b3c4d-0001-01"));
    List<Call> calls = List.of(new Call(at(60), at(260)), new Call(at(320), at(520)));

    ChatTimeline.Turn t = ChatTimeline.turn(2, at(0), at(550), marks, calls).orElseThrow();

    Map<Step, Double> s = t.steps();
    assertEquals(40, s.get(Step.BOUNDARY), 1e-9);
    assertEquals(15 + 12, s.get(Step.DISPATCH), 1e-9);
    assertEquals(5 + 8, s.get(Step.TO_WIRE), 1e-9);
    assertEquals(400, s.get(Step.PROVIDER), 1e-9);
    assertEquals(0, s.get(Step.BETWEEN_ROUNDS), 1e-9);
    assertEquals(10 + 10, s.get(Step.TO_COMPLETED), 1e-9);
    assertEquals(30, s.get(Step.BETWEEN_WOS), 1e-9);
    assertEquals(6, s.get(Step.TURN_END), 1e-9);
    assertEquals(14, s.get(Step.RESULT_BACK), 1e-9);
    assertEquals(550, t.spanMs(), 1e-9);
    assertEquals(t.spanMs(), s.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
  }

  @Test
  void aToolRound_betweenTwoCallsOfOneWorkOrder_isItsOwnStep() {
    List<Mark> marks = List.of(mark(10, EventType.WO_DISPATCHED, CLASSIFY), mark(20, EventType.WO_EXECUTING, CLASSIFY),
        mark(480, EventType.WO_COMPLETED, CLASSIFY), mark(490, EventType.WO_CHAIN_COMPLETE, null));
    List<Call> calls = List.of(new Call(at(25), at(225)), new Call(at(270), at(470)));

    Map<Step, Double> s = ChatTimeline.turn(2, at(0), at(500), marks, calls).orElseThrow().steps();

    assertEquals(45, s.get(Step.BETWEEN_ROUNDS), 1e-9);
    assertEquals(400, s.get(Step.PROVIDER), 1e-9);
    assertEquals(10, s.get(Step.TO_COMPLETED), 1e-9);
  }

  @Test
  void aTurnWithoutItsChain_isNotDecomposed() {
    List<Mark> marks = List.of(mark(10, EventType.WO_DISPATCHED, CLASSIFY), mark(20, EventType.WO_EXECUTING, CLASSIFY),
        mark(480, EventType.WO_COMPLETED, CLASSIFY));
    assertEquals(Optional.empty(), ChatTimeline.turn(2, at(0), at(500), marks, List.of(new Call(at(25), at(225)))));
  }

  @Test
  void shares_areOfTheOverheadOnly_andAddUpToOne() {
    List<ChatTimeline.Turn> turns = new ArrayList<>();
    List<Mark> marks = List.of(mark(30, EventType.WO_DISPATCHED, CLASSIFY), mark(40, EventType.WO_EXECUTING, CLASSIFY),
        mark(250, EventType.WO_COMPLETED, CLASSIFY), mark(260, EventType.WO_CHAIN_COMPLETE, null));
    turns.add(ChatTimeline.turn(2, at(0), at(280), marks, List.of(new Call(at(45), at(245)))).orElseThrow());

    Map<Step, Double> shares = ChatTimeline.shares(ChatTimeline.medians(turns));

    assertTrue(!shares.containsKey(Step.PROVIDER));
    assertEquals(1.0, shares.values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    assertEquals(30.0 / 80, shares.get(Step.BOUNDARY), 1e-9);
  }
}
