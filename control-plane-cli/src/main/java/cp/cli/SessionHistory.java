package cp.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.activities.ExchangeRecord;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.EventType;
import cp.model.WorkOrderIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A session as the ledgers remember it: its turns with input, reply, outcome, work-order
 * chain, tokens, cost, degradations and escalations. It needs no Temporal service, so it works
 * for sessions long gone from the embedded service's memory. Its JSON form uses snake_case keys,
 * like every other record the plane prints or stores.
 */
public final class SessionHistory {
  private SessionHistory() {}

  /** One work order of a turn. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record WoView(String woId, String type, String state, String errorCode) {}

  /**
   * One turn. {@code unpricedCalls}: its calls whose model had no price (their EXCHANGE's {@code cost_unknown}),
   * which {@code cost} leaves out; absent when none.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record TurnView(int turn, String input, String reply, String outcome, List<WoView> chain, long inputTokens,
      long outputTokens, double cost, int llmCalls, int toolCalls, List<String> degradations, boolean escalated,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Integer unpricedCalls) {}

  /** A whole session. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record SessionView(String sessionId, String agentClass, String startedAt, String endedAt, String endReason,
      List<TurnView> turns) {
    public long totalTokens() {
      return turns.stream().mapToLong(t -> t.inputTokens() + t.outputTokens()).sum();
    }

    public double totalCost() {
      return turns.stream().mapToDouble(TurnView::cost).sum();
    }

    /** The session's calls whose model had no price. */
    public int totalUnpricedCalls() {
      return turns.stream().mapToInt(t -> t.unpricedCalls() == null ? 0 : t.unpricedCalls()).sum();
    }
  }

  /** One line of {@code cpctl sessions}. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Listing(String sessionId, String agentClass, String startedAt, String endedAt, String endReason) {}

  /** Sessions recorded in the HOT ledger (SESSION_START / SESSION_END), oldest first. */
  public static List<Listing> list(Ledgers ledgers) {
    Map<String, Listing> out = new java.util.LinkedHashMap<>();
    var hot = ledgers.existing(Tier.HOT, null);
    if (hot.isEmpty()) {
      return List.of();
    }
    for (LedgerEntry e : hot.get().byEventType(EventType.SESSION_START.wire())) {
      out.put(e.sessionId(), new Listing(e.sessionId(), e.metaText("agent_class"), e.timestamp(), null, null));
    }
    for (LedgerEntry e : hot.get().byEventType(EventType.SESSION_END.wire())) {
      Listing l = out.get(e.sessionId());
      if (l != null) {
        out.put(e.sessionId(), new Listing(l.sessionId(), l.agentClass(), l.startedAt(), e.timestamp(),
            e.metaText("end_reason")));
      }
    }
    return new ArrayList<>(out.values());
  }

  public static Optional<SessionView> load(Ledgers ledgers, String sessionId) {
    var hotOpt = ledgers.existing(Tier.HOT, null);
    if (hotOpt.isEmpty()) {
      return Optional.empty();
    }
    List<LedgerEntry> hot = hotOpt.get().bySession(sessionId);
    LedgerEntry start = hot.stream().filter(e -> EventType.SESSION_START.is(e.eventType())).findFirst().orElse(null);
    if (start == null && hot.isEmpty()) {
      return Optional.empty();
    }
    String agentClass = start == null ? null : start.metaText("agent_class");
    LedgerEntry end = hot.stream().filter(e -> EventType.SESSION_END.is(e.eventType())).findFirst().orElse(null);
    Map<Integer, Builder> turns = new TreeMap<>();
    for (LedgerEntry e : hot) {
      if (e.eventType().equals(ExchangeRecord.EVENT_TYPE)) {
        int t = WorkOrderIds.turnOf(e.workOrderId());
        if (t > 0) {
          turns.computeIfAbsent(t, Builder::new).exchange(e);
        }
      } else if (EventType.DEGRADATION.is(e.eventType())) {
        int t = e.meta("turn") == null ? -1 : e.meta("turn").asInt();
        turns.computeIfAbsent(t, Builder::new).degradations.add(e.reason());
      }
    }
    if (agentClass != null) {
      ledgers.existing(Tier.HO2, agentClass).ifPresent(ho2 -> {
        for (LedgerEntry e : ho2.bySession(sessionId)) {
          int t = e.meta("turn") == null ? -1 : e.meta("turn").asInt();
          Builder b = turns.computeIfAbsent(t, Builder::new);
          switch (EventType.fromWire(e.eventType()).orElse(EventType.EXCHANGE)) {
            case WO_PLANNED -> b.planned(e);
            case WO_CHAIN_COMPLETE -> b.outcome = e.metaText("outcome");
            case ESCALATION -> b.escalated = true;
            default -> { }
          }
        }
      });
    }
    ledgers.existing(Tier.HO1, null).ifPresent(ho1 -> {
      for (LedgerEntry e : ho1.query(LedgerQuery.session(sessionId))) {
        if (EventType.WO_COMPLETED.is(e.eventType()) || EventType.WO_FAILED.is(e.eventType())) {
          int t = WorkOrderIds.turnOf(e.workOrderId());
          turns.computeIfAbsent(t, Builder::new).finished(e);
        } else if (EventType.TOOL_CALL.is(e.eventType())) {
          turns.computeIfAbsent(WorkOrderIds.turnOf(e.workOrderId()), Builder::new).toolCalls++;
        }
      }
    });
    List<TurnView> views = new ArrayList<>();
    turns.values().stream().filter(b -> b.turn > 0).forEach(b -> views.add(b.build()));
    return Optional.of(new SessionView(sessionId, agentClass, start == null ? null : start.timestamp(),
        end == null ? null : end.timestamp(), end == null ? null : end.metaText("end_reason"), views));
  }

  private static final class Builder {
    final int turn;
    String input;
    /** The user's text from the turn's first WO_PLANNED, for when no EXCHANGE carries it. */
    String plannedInput;
    String reply;
    String outcome;
    final Map<String, WoView> chain = new java.util.LinkedHashMap<>();
    long in;
    long out;
    double cost;
    int llmCalls;
    int unpricedCalls;
    int toolCalls;
    final List<String> degradations = new ArrayList<>();
    boolean escalated;
    boolean degradedAnswer;

    Builder(int turn) {
      this.turn = turn;
    }

    void exchange(LedgerEntry e) {
      ExchangeRecord x = ExchangeRecord.of(e);
      in += x.inputTokens();
      out += x.outputTokens();
      cost += x.costUsd();
      if (x.costUnknown()) {
        unpricedCalls++;
      }
      if (!x.success()) {
        return;
      }
      llmCalls++;
      if ((x.synthesize() || x.degraded()) && input == null) {
        input = x.userInput();
      }
      if (x.finalAnswer()) {
        reply = x.answerText();
        degradedAnswer = x.degraded();
      }
      if (x.classify() && input == null) {
        input = x.userInput();
      }
    }

    void planned(LedgerEntry e) {
      // The user's text as the turn planned it: what a turn whose first model call failed (no EXCHANGE
      // answered: degraded, refused for a budget, interrupted) still has on record.
      com.fasterxml.jackson.databind.JsonNode text = e.metadata().path("work_order").path("input_context")
          .path("user_input");
      if (plannedInput == null && text.isTextual()) {
        plannedInput = text.asText();
      }
      String wo = e.workOrderId();
      chain.putIfAbsent(wo, new WoView(wo, e.metaText("wo_type"), "planned", null));
    }

    void finished(LedgerEntry e) {
      String wo = e.workOrderId();
      WoView old = chain.get(wo);
      String type = old != null ? old.type() : e.metaText("wo_type");
      chain.put(wo, new WoView(wo, type, EventType.WO_COMPLETED.is(e.eventType()) ? "completed" : "failed",
          e.metaText("error_code")));
    }

    TurnView build() {
      String o = outcome;
      if (o == null && !degradations.isEmpty()) {
        o = degradedAnswer ? "degraded" : "error";
      }
      return new TurnView(turn, input != null ? input : plannedInput, reply, o == null ? "unknown" : o, List.copyOf(chain.values()), in, out, cost,
          llmCalls, toolCalls, List.copyOf(degradations), escalated, unpricedCalls == 0 ? null : unpricedCalls);
    }
  }
}
