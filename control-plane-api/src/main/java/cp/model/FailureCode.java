package cp.model;

import io.temporal.failure.ApplicationFailure;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every failure code of the plane, in one place: the provider's error kinds, the gateway's
 * refusals, the activities' Temporal failure types, the codes a work order ends with
 * ({@link WoError#code()}), and the error codes of a turn ({@link TurnResult#errorCode()}).
 *
 * <p>{@link #wire()} is the string that appears in ledgers, recorded histories (as an
 * {@code ApplicationFailure} type), turn results and the README; it never changes. {@link
 * #retryable()} says whether the same call may succeed if made again: the gateway throws with it,
 * HO1 sets a failure's non-retryable flag from it, and the activity retry options refuse to
 * retry every code that is not ({@link #nonRetryableTypes()}).
 */
public enum FailureCode {
  // --- A provider round trip failed (cp.gateway.ProviderErrorKind, lower-cased) ---------------
  /** HTTP 429: too many requests or tokens per minute; wait and retry. */
  RATE_LIMITED(true),
  /** HTTP 529 (Anthropic): the service is overloaded; wait and retry. */
  OVERLOADED(true),
  /** HTTP 5xx other than 529: the provider failed; retry. */
  SERVER_ERROR(true),
  /**
   * Connected, but no (complete) response in time; retry. Also a work-order code
   * ({@link WoErrorCode#TIMEOUT}).
   */
  TIMEOUT(true),
  /** The connection broke (reset, closed) or a pooled one was dead; retry. */
  CONNECTION(true),
  /**
   * No connection to the provider's endpoint could be made (refused, unknown host, no route,
   * connect timeout, TLS handshake): nothing was sent. Retried, but only a few times
   * ({@code CP_HTTP_CONNECT_ATTEMPTS}): a server that is not there rarely appears within a turn.
   */
  PROVIDER_UNREACHABLE(true),
  /** HTTP 2xx whose body could not be understood; a retry may get a well-formed body. */
  INVALID_RESPONSE(true),
  /** HTTP 400 (and 422): the request is malformed. */
  BAD_REQUEST(false),
  /** HTTP 401: the API key is missing or wrong. */
  AUTHENTICATION(false),
  /** HTTP 403: the key may not use this model or resource. */
  PERMISSION(false),
  /** HTTP 404: unknown model or endpoint. */
  NOT_FOUND(false),
  /** HTTP 413: the request exceeds the provider's size limit. */
  REQUEST_TOO_LARGE(false),
  /** Spend limit, credit balance or quota exhausted. */
  QUOTA_EXCEEDED(false),
  /** A 2xx reply over CP_HTTP_MAX_REPLY_BYTES: already paid for, so never sent again. */
  REPLY_TOO_LARGE(false),
  /** Any other status: nothing suggests a retry would help. */
  UNEXPECTED_STATUS(false),

  // --- The gateway refused or failed a call ---------------------------------------------------
  /** The provider's circuit breaker is open; retried after its cooldown (final for the degraded call). */
  CIRCUIT_OPEN(true),
  /** The provider client threw something unclassified (a bug or an unexpected runtime error). */
  PROVIDER_FAILURE(true),
  /** The gateway refused a malformed request before sending it. */
  INVALID_REQUEST(false),
  /** The budget cannot pay for the call: a gateway refusal, a work-order code and a turn code. */
  BUDGET_EXHAUSTED(false),
  /** A ledger refuses appends for good (a broken chain, a file that refuses writes) until repaired. */
  LEDGER_UNWRITABLE(false),
  /** A ledger's disk is full: retried with backoff in a remote activity; work orders end {@link #LEDGER_UNWRITABLE}. */
  LEDGER_FULL(true),
  /**
   * The ledger's database (CP_LEDGER_URL) cannot be reached: retried with backoff while it is
   * gone; a paid answer that could not be recorded is kept and recorded when it is back.
   */
  LEDGER_UNAVAILABLE(true),

  // --- An activity failed --------------------------------------------------------------------
  /** The agent configuration the session names is missing or invalid. */
  CONFIG_ERROR(false),
  /** An attention template timed out and its fallback is 'fail'. */
  ATTENTION_TIMEOUT(false),
  /** An attention template found fewer fragments than it requires. */
  ATTENTION_EMPTY(false),

  // --- A work order ended failed (WoError.code, seed 000 FMWK-008) ----------------------------
  CONTRACT_NOT_FOUND(false),
  INPUT_SCHEMA_INVALID(false),
  OUTPUT_SCHEMA_INVALID(false),
  TURN_LIMIT_EXCEEDED(false),
  /** The gateway refused a round for any reason but the budget. */
  GATEWAY_ERROR(false),
  TOOL_ERROR(false),

  // --- A turn ended with an error (TurnResult.errorCode) or a session refused an Update -------
  /** HO2's own work orders failed; the turn answered with the degraded call. */
  HO2_FAILED(false),
  /** Neither HO2 nor the degraded call could answer. */
  UNAVAILABLE(false),
  /** The quality gate rejected the answer; the turn escalated. */
  QUALITY_GATE_REJECTED(false),
  /** The turn ran past its deadline and was cancelled. */
  TURN_DEADLINE_EXCEEDED(false),
  /** The session refused a turn (another is running, the input is bad). */
  TURN_REFUSED(false),
  /** The session has ended or is writing SESSION_END. */
  SESSION_ENDED(false),

  // --- A session's start was refused (cp.model.Refusal), or a Query it does not know ----------
  START_REFUSED(false),
  UNKNOWN_AGENT_CLASS(false),
  UNKNOWN_QUERY(false),
  /** An {@code approve} Update was refused (issue 15): unknown or already decided approval, a malformed decision. */
  APPROVAL_REFUSED(false);

  private static final Map<String, FailureCode> BY_WIRE = Arrays.stream(values())
      .collect(Collectors.toUnmodifiableMap(FailureCode::wire, Function.identity()));
  private static final List<String> NON_RETRYABLE = Arrays.stream(values())
      .filter(c -> !c.retryable()).map(FailureCode::wire).toList();

  private final boolean retryable;
  private final String wire;

  FailureCode(boolean retryable) {
    this.retryable = retryable;
    this.wire = name().toLowerCase(Locale.ROOT);
  }

  /** The code as ledgers, histories and turn results spell it, e.g. {@code rate_limited}. */
  public String wire() {
    return wire;
  }

  /** True when the same call may succeed if made again later. */
  public boolean retryable() {
    return retryable;
  }

  /**
   * A Temporal failure of this type with {@code message}, non-retryable unless the code is
   * {@link #retryable()}: how activities and workflows throw a code.
   */
  public ApplicationFailure failure(String message) {
    return retryable ? ApplicationFailure.newFailure(message, wire)
        : ApplicationFailure.newNonRetryableFailure(message, wire);
  }

  /** Whether {@code type} (a failure type or error code) is this code. */
  public boolean is(String type) {
    return wire.equals(type);
  }

  /** The code spelled {@code wire}, or empty when it is not one of ours. */
  public static Optional<FailureCode> of(String wire) {
    return Optional.ofNullable(wire == null ? null : BY_WIRE.get(wire));
  }

  /**
   * The failure types no retry can fix, for {@code RetryOptions.setDoNotRetry}: every code whose
   * {@link #retryable()} is false.
   */
  public static List<String> nonRetryableTypes() {
    return NON_RETRYABLE;
  }

  /** Whether a failure of this type is a ledger that refused an append ({@link #LEDGER_UNWRITABLE} or full). */
  public static boolean isLedgerFailure(String type) {
    return LEDGER_UNWRITABLE.is(type) || LEDGER_FULL.is(type) || LEDGER_UNAVAILABLE.is(type);
  }

  /**
   * The code a work order fails with when the gateway refused its round: the gateway's
   * {@code budget_exhausted} stays that, any other refusal is a {@link #GATEWAY_ERROR}.
   */
  public static FailureCode ofRejection(String gatewayCode) {
    return BUDGET_EXHAUSTED.is(gatewayCode) ? BUDGET_EXHAUSTED : GATEWAY_ERROR;
  }
}
