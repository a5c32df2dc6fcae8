package cp.model;

import java.util.Map;
import java.util.Optional;

/**
 * Every event type the product writes to a ledger, by its wire name (the {@code event_type} of a
 * ledger entry). The wire names never change: recorded ledgers, workflow histories and idempotency
 * keys hold them. Records that cross Temporal keep the type as a String ({@link Ho2Event},
 * {@link SessionEvent}) and are built from {@link #wire()}.
 */
public enum EventType {
  // HOT (governance)
  /** One LLM round trip through the gateway: prompt, response, tokens, latency, identity. */
  EXCHANGE,
  /** A prompt the gateway refused before sending it (contract or schema violation). */
  PROMPT_REJECTED,
  SESSION_START,
  SESSION_END,
  /** The session answered through the degraded path. */
  DEGRADATION,
  // HO2 (the supervisor, one ledger per agent class)
  WO_PLANNED,
  WO_DISPATCHED,
  WO_QUALITY_GATE,
  /** The quality gate never accepted an answer. */
  ESCALATION,
  /** The end of a turn. */
  WO_CHAIN_COMPLETE,
  ATTENTION_ASSEMBLED,
  // HO1 (the executor)
  WO_EXECUTING,
  LLM_CALL,
  TOOL_CALL,
  WO_COMPLETED,
  WO_FAILED,
  APPROVAL_REQUESTED,
  APPROVAL_DECIDED,
  /**
   * The tools an MCP server listed, with their hash, as a session was first offered them (issue
   * 22): once per session and list, so a server that changed its tools shows a second hash.
   */
  MCP_TOOL_LIST,
  // Any ledger
  /** {@code cpctl ledger repair} moved bad lines aside, or recorded a loss. */
  LEDGER_REPAIRED,
  /** The first entry written with {@code CP_LEDGER_HMAC_KEY} to a ledger written without it. */
  LEDGER_KEYED,
  /** Issue 23: the gateway sent a call to the next model of its fallback chain: from what, to what, and why. */
  FALLBACK;

  private static final Map<String, EventType> BY_WIRE = java.util.Arrays.stream(values())
      .collect(java.util.stream.Collectors.toUnmodifiableMap(EventType::wire, t -> t));

  /** The name written in ledgers ({@code event_type}) and used in idempotency keys. */
  public String wire() {
    return name();
  }

  /** Whether {@code wire} (an entry's {@code event_type}, possibly null) names this type. */
  public boolean is(String wire) {
    return wire().equals(wire);
  }

  /** The type a wire name names, or empty for one the product does not write (or null). */
  public static Optional<EventType> fromWire(String wire) {
    return Optional.ofNullable(wire == null ? null : BY_WIRE.get(wire));
  }
}
