package cp.bench;

import cp.model.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * B7's step table: where one chat turn's time goes, from three clocks that read the same wall
 * time: the bench's view of the chat process (the turn's line written to its stdin, its footer
 * read from its stdout), the ledger entries the chat's plane wrote (WO_DISPATCHED, WO_EXECUTING,
 * WO_COMPLETED, WO_CHAIN_COMPLETE) and the fake provider's request and response times.
 *
 * <p>A turn's steps are consecutive intervals, so they add up to the turn's span exactly. Pure
 * arithmetic over the recorded times: no I/O, no clock.
 */
final class ChatTimeline {
  /** The steps of a turn, in the order they happen. */
  enum Step {
    BOUNDARY("turn boundary: turn sent → first WO_DISPATCHED (the client's calls, the Update, session task,"
        + " child start, plan)"),
    DISPATCH("activity dispatch: WO_DISPATCHED → WO_EXECUTING"),
    TO_WIRE("WO_EXECUTING → request on the wire"),
    PROVIDER("the provider's latency L: request → response"),
    BETWEEN_ROUNDS("response → next request of the same work order (tool rounds)"),
    TO_COMPLETED("provider reply → WO_COMPLETED"),
    BETWEEN_WOS("classify → synthesize: WO_COMPLETED → next WO_DISPATCHED (attention, plan)"),
    TURN_END("last WO_COMPLETED → WO_CHAIN_COMPLETE (quality gate)"),
    RESULT_BACK("WO_CHAIN_COMPLETE → result at the chat (child result, the Update's result, printing)");

    final String what;

    Step(String what) {
      this.what = what;
    }

    /** Whether the step is orchestration overhead (everything but the provider's own time). */
    boolean overhead() {
      return this != PROVIDER;
    }
  }

  /** One ledger entry that marks a step: its time, event type, turn and work order (null for turn-level entries). */
  record Mark(Instant at, EventType eventType, int turn, String workOrderId) {}

  /** The ledger entries the steps are cut at. */
  static final List<EventType> MARKS = List.of(EventType.WO_DISPATCHED, EventType.WO_EXECUTING,
      EventType.WO_COMPLETED, EventType.WO_CHAIN_COMPLETE);

  /** One provider call as the fake provider saw it. */
  record Call(Instant request, Instant response) {}

  /** One decomposed turn: milliseconds per step (summing to {@link #spanMs}). */
  record Turn(int turn, double spanMs, Map<Step, Double> steps) {}

  private ChatTimeline() {}

  /**
   * Decomposes turn {@code turn}, sent at {@code sent} and answered at {@code answered}; empty when
   * the ledgers lack a mark the decomposition needs (a degraded turn has no work-order chain).
   */
  static Optional<Turn> turn(int turn, Instant sent, Instant answered, List<Mark> marks, List<Call> calls) {
    List<Mark> ofTurn = marks.stream().filter(m -> m.turn() == turn).toList();
    List<String> workOrders = ofTurn.stream().filter(m -> m.eventType() == EventType.WO_DISPATCHED)
        .sorted((a, b) -> a.at().compareTo(b.at())).map(Mark::workOrderId).toList();
    Optional<Mark> chainComplete = first(ofTurn, EventType.WO_CHAIN_COMPLETE, null);
    if (workOrders.isEmpty() || chainComplete.isEmpty()) {
      return Optional.empty();
    }
    Map<Step, Double> steps = new EnumMap<>(Step.class);
    for (Step s : Step.values()) {
      steps.put(s, 0.0);
    }
    Instant previousEnd = null;
    for (String wo : workOrders) {
      Optional<Mark> dispatched = first(ofTurn, EventType.WO_DISPATCHED, wo);
      Optional<Mark> executing = first(ofTurn, EventType.WO_EXECUTING, wo);
      Optional<Mark> completed = first(ofTurn, EventType.WO_COMPLETED, wo);
      if (dispatched.isEmpty() || executing.isEmpty() || completed.isEmpty()) {
        return Optional.empty();
      }
      Instant d = dispatched.get().at();
      Instant e = executing.get().at();
      Instant c = completed.get().at();
      add(steps, previousEnd == null ? Step.BOUNDARY : Step.BETWEEN_WOS, previousEnd == null ? sent : previousEnd, d);
      add(steps, Step.DISPATCH, d, e);
      List<Call> inside = calls.stream().filter(k -> !k.request().isBefore(e) && !k.response().isAfter(c))
          .sorted((a, b) -> a.request().compareTo(b.request())).toList();
      if (inside.isEmpty()) {
        return Optional.empty();
      }
      Instant at = e;
      for (int i = 0; i < inside.size(); i++) {
        Call k = inside.get(i);
        add(steps, i == 0 ? Step.TO_WIRE : Step.BETWEEN_ROUNDS, at, k.request());
        add(steps, Step.PROVIDER, k.request(), k.response());
        at = k.response();
      }
      add(steps, Step.TO_COMPLETED, at, c);
      previousEnd = c;
    }
    add(steps, Step.TURN_END, previousEnd, chainComplete.get().at());
    add(steps, Step.RESULT_BACK, chainComplete.get().at(), answered);
    return Optional.of(new Turn(turn, millis(sent, answered), steps));
  }

  /** The median of each step over {@code turns}, in milliseconds. */
  static Map<Step, Double> medians(List<Turn> turns) {
    Map<Step, Double> out = new EnumMap<>(Step.class);
    for (Step s : Step.values()) {
      List<Double> values = new ArrayList<>();
      turns.forEach(t -> values.add(t.steps().get(s)));
      out.put(s, Stats.median(values));
    }
    return out;
  }

  /** Each overhead step's share of the overhead steps' medians together (the provider's time left out). */
  static Map<Step, Double> shares(Map<Step, Double> medians) {
    double total = medians.entrySet().stream().filter(e -> e.getKey().overhead()).mapToDouble(Map.Entry::getValue)
        .sum();
    Map<Step, Double> out = new EnumMap<>(Step.class);
    medians.forEach((s, v) -> {
      if (s.overhead()) {
        out.put(s, total <= 0 ? 0 : v / total);
      }
    });
    return out;
  }

  private static Optional<Mark> first(List<Mark> marks, EventType eventType, String workOrderId) {
    return marks.stream().filter(m -> m.eventType() == eventType
        && (workOrderId == null || workOrderId.equals(m.workOrderId()))).min((a, b) -> a.at().compareTo(b.at()));
  }

  private static void add(Map<Step, Double> steps, Step step, Instant from, Instant to) {
    steps.merge(step, millis(from, to), Double::sum);
  }

  static double millis(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e6;
  }
}
