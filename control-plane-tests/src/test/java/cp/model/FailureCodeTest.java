package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.Gateway;
import cp.gateway.GatewayException;
import cp.gateway.ProviderErrorKind;
import cp.ledger.LedgerProblem;
import cp.worker.TemporalOptions;
import cp.workflows.SessionWorkflowImpl;
import cp.workflows.TurnWorkflowImpl;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One failure vocabulary: every layer's codes come from {@link FailureCode}, spelled exactly as
 * ledgers, recorded histories and the README spell them, and every non-retryable code is one the
 * activity retry options refuse to retry.
 */
class FailureCodeTest {

  /** The strings in ledgers and histories before the codes had one home: they may never change. */
  private static final List<String> WIRE = List.of(
      "rate_limited", "overloaded", "server_error", "timeout", "connection", "provider_unreachable", "invalid_response",
      "bad_request",
      "authentication", "permission", "not_found", "request_too_large", "quota_exceeded", "reply_too_large",
      "unexpected_status", "circuit_open", "provider_failure", "invalid_request", "budget_exhausted",
      "ledger_unwritable", "ledger_full", "ledger_unavailable", "config_error", "attention_timeout", "attention_empty",
      "contract_not_found", "input_schema_invalid", "output_schema_invalid", "turn_limit_exceeded", "gateway_error",
      "tool_error", "ho2_failed", "unavailable", "quality_gate_rejected", "turn_deadline_exceeded", "turn_refused",
      "session_ended", "start_refused", "unknown_agent_class", "unknown_query", "approval_refused");

  /** The literal doNotRetry list TemporalOptions had: still refused, every one. */
  private static final List<String> NON_RETRYABLE_BEFORE = List.of(
      "bad_request", "authentication", "permission", "not_found", "request_too_large", "quota_exceeded",
      "invalid_request", "budget_exhausted", "contract_not_found", "input_schema_invalid", "config_error",
      "ledger_unwritable");

  @Test
  void everyCodeKeepsItsWireSpelling() {
    Set<String> wires = new LinkedHashSet<>();
    for (FailureCode c : FailureCode.values()) {
      wires.add(c.wire());
      assertEquals(Optional.of(c), FailureCode.of(c.wire()));
    }
    assertEquals(new LinkedHashSet<>(WIRE), wires);
    assertEquals(Optional.empty(), FailureCode.of("no_such_code"));
    assertEquals(Optional.empty(), FailureCode.of(null));
  }

  @Test
  void everyProviderKindIsACodeWithTheSameRetryability() {
    for (ProviderErrorKind k : ProviderErrorKind.values()) {
      assertEquals(k.name().toLowerCase(java.util.Locale.ROOT), k.code().wire(), k.name());
      assertEquals(k.code().retryable(), k.retryable(), k.name());
    }
    assertTrue(ProviderErrorKind.RATE_LIMITED.retryable());
    assertFalse(ProviderErrorKind.REPLY_TOO_LARGE.retryable());
  }

  @Test
  void theRetryOptionsRefuseExactlyTheNonRetryableCodes() {
    assertEquals(FailureCode.nonRetryableTypes(), TemporalOptions.NON_RETRYABLE_TYPES);
    assertTrue(TemporalOptions.NON_RETRYABLE_TYPES.containsAll(NON_RETRYABLE_BEFORE));
    for (FailureCode c : FailureCode.values()) {
      assertEquals(!c.retryable(), TemporalOptions.NON_RETRYABLE_TYPES.contains(c.wire()), c.wire());
    }
    // The literal list forgot these two, though the gateway throws them as final.
    assertTrue(TemporalOptions.NON_RETRYABLE_TYPES.contains("reply_too_large"));
    assertTrue(TemporalOptions.NON_RETRYABLE_TYPES.contains("unexpected_status"));
  }

  @Test
  void aGatewayFailureIsRetryableExactlyWhenItsCodeIs() {
    for (FailureCode c : List.of(FailureCode.RATE_LIMITED, FailureCode.CIRCUIT_OPEN, FailureCode.LEDGER_FULL,
        FailureCode.BAD_REQUEST, FailureCode.LEDGER_UNWRITABLE)) {
      GatewayException e = new GatewayException(c, null, "EX-1", "why");
      assertEquals(c, e.code());
      assertEquals(c.wire(), e.errorCode());
      assertEquals(c.retryable(), e.retryable());
    }
  }

  @Test
  void everyLayersConstantsAreTheCodes() {
    assertEquals(FailureCode.BUDGET_EXHAUSTED.wire(), Gateway.BUDGET_EXHAUSTED);
    assertEquals(FailureCode.INVALID_REQUEST.wire(), Gateway.INVALID_REQUEST);
    assertEquals(FailureCode.CIRCUIT_OPEN.wire(), Gateway.CIRCUIT_OPEN);
    assertEquals(FailureCode.LEDGER_UNWRITABLE.wire(), Gateway.LEDGER_UNWRITABLE);
    assertEquals(FailureCode.LEDGER_FULL.wire(), Gateway.LEDGER_FULL);
    assertEquals(FailureCode.LEDGER_UNWRITABLE.wire(), LedgerProblem.UNWRITABLE);
    assertEquals(FailureCode.LEDGER_FULL.wire(), LedgerProblem.FULL_TYPE);
    assertEquals(FailureCode.BUDGET_EXHAUSTED.wire(), WoErrorCode.BUDGET_EXHAUSTED);
    assertEquals(FailureCode.TURN_LIMIT_EXCEEDED.wire(), WoErrorCode.TURN_LIMIT_EXCEEDED);
    assertEquals(FailureCode.CONTRACT_NOT_FOUND.wire(), WoErrorCode.CONTRACT_NOT_FOUND);
    assertEquals(FailureCode.INPUT_SCHEMA_INVALID.wire(), WoErrorCode.INPUT_SCHEMA_INVALID);
    assertEquals(FailureCode.OUTPUT_SCHEMA_INVALID.wire(), WoErrorCode.OUTPUT_SCHEMA_INVALID);
    assertEquals(FailureCode.GATEWAY_ERROR.wire(), WoErrorCode.GATEWAY_ERROR);
    assertEquals(FailureCode.TOOL_ERROR.wire(), WoErrorCode.TOOL_ERROR);
    assertEquals(FailureCode.TIMEOUT.wire(), WoErrorCode.TIMEOUT);
    assertEquals(FailureCode.LEDGER_UNWRITABLE.wire(), WoErrorCode.LEDGER_UNWRITABLE);
    assertEquals(FailureCode.LEDGER_FULL.wire(), WoErrorCode.LEDGER_FULL);
    assertEquals(FailureCode.HO2_FAILED.wire(), TurnWorkflowImpl.HO2_FAILED);
    assertEquals(FailureCode.SESSION_ENDED.wire(), SessionWorkflowImpl.SESSION_ENDED);
    assertEquals(FailureCode.TURN_REFUSED.wire(), SessionWorkflowImpl.TURN_REFUSED);
    assertEquals(FailureCode.TURN_DEADLINE_EXCEEDED.wire(), SessionWorkflowImpl.TURN_DEADLINE_EXCEEDED);
  }

  /**
   * Literals that spell a failure code's wire string but belong to another vocabulary: an
   * EXCHANGE's outcome, a tool result's error code.
   */
  private static final Set<String> OTHER_VOCABULARIES = Set.of(
      "cp/gateway/ExchangeRecords.java \"timeout\"", "cp/tools/ToolErrorCodes.java \"not_found\"");

  /**
   * Every code is defined once, in FailureCode: a second spelling of its wire string (a literal
   * in a list of codes to retry or not, a constant of its own) or a second retryability (a
   * {@code boolean retryable} field, a literal {@code setNonRetryable(true)}, a switch deciding
   * which kinds retry) in the main sources fails here.
   */
  @Test
  void everyCodeAndItsRetryabilityAreDefinedInFailureCodeOnly() {
    java.util.regex.Pattern literal = java.util.regex.Pattern.compile("\"([a-z0-9_]+)\"");
    java.util.regex.Pattern ownRetryability = java.util.regex.Pattern.compile(
        "boolean\\s+retryable\\s*[;=,)]|setNonRetryable\\(\\s*(true|false)\\s*\\)|retryable\\(\\)\\s*\\{\\s*return\\s+(true|false|switch)");
    Set<String> wires = new java.util.HashSet<>(WIRE);
    List<String> found = new java.util.ArrayList<>();
    for (var file : SourceScan.mainSources()) {
      String name = file.toString().replace('\\', '/');
      if (name.endsWith("/cp/model/FailureCode.java")) {
        continue;
      }
      for (SourceScan.Line line : SourceScan.lines(file)) {
        if (line.text().strip().startsWith("*") || line.text().strip().startsWith("//")) {
          continue;
        }
        var m = literal.matcher(line.text());
        while (m.find()) {
          String key = name.substring(name.indexOf("/cp/") + 1) + " \"" + m.group(1) + "\"";
          if (wires.contains(m.group(1)) && !OTHER_VOCABULARIES.contains(key)) {
            found.add("code spelled again: " + line);
          }
        }
        if (ownRetryability.matcher(line.text()).find()) {
          found.add("retryability decided again: " + line);
        }
      }
    }
    assertEquals(List.of(), found, "derive these from cp.model.FailureCode");
  }

  @Test
  void aRefusedRoundFailsItsWorkOrderWithBudgetOrGatewayError() {
    assertEquals(FailureCode.BUDGET_EXHAUSTED, FailureCode.ofRejection("budget_exhausted"));
    assertEquals(FailureCode.GATEWAY_ERROR, FailureCode.ofRejection("invalid_request"));
    assertEquals(FailureCode.GATEWAY_ERROR, FailureCode.ofRejection(null));
    assertTrue(FailureCode.isLedgerFailure("ledger_full"));
    assertTrue(FailureCode.isLedgerFailure("ledger_unwritable"));
    assertFalse(FailureCode.isLedgerFailure("timeout"));
  }
}
