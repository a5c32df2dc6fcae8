package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status table, retryability, quota wording and the shape of ProviderException's message. */
class ProviderErrorKindTest {
  @Test
  void statusTable() {
    Map<Integer, ProviderErrorKind> expected = Map.ofEntries(
        Map.entry(400, ProviderErrorKind.BAD_REQUEST), Map.entry(401, ProviderErrorKind.AUTHENTICATION),
        Map.entry(402, ProviderErrorKind.QUOTA_EXCEEDED), Map.entry(403, ProviderErrorKind.PERMISSION),
        Map.entry(404, ProviderErrorKind.NOT_FOUND), Map.entry(408, ProviderErrorKind.TIMEOUT),
        Map.entry(409, ProviderErrorKind.UNEXPECTED_STATUS), Map.entry(413, ProviderErrorKind.REQUEST_TOO_LARGE),
        Map.entry(422, ProviderErrorKind.BAD_REQUEST), Map.entry(429, ProviderErrorKind.RATE_LIMITED),
        Map.entry(500, ProviderErrorKind.SERVER_ERROR), Map.entry(502, ProviderErrorKind.SERVER_ERROR),
        Map.entry(503, ProviderErrorKind.SERVER_ERROR), Map.entry(504, ProviderErrorKind.SERVER_ERROR),
        Map.entry(529, ProviderErrorKind.OVERLOADED), Map.entry(599, ProviderErrorKind.SERVER_ERROR),
        Map.entry(302, ProviderErrorKind.UNEXPECTED_STATUS));
    expected.forEach((status, kind) -> assertEquals(kind, ProviderErrorKind.forStatus(status), "HTTP " + status));
  }

  @Test
  void onlyTransientKindsAreRetryable() {
    List<ProviderErrorKind> retryable = List.of(ProviderErrorKind.RATE_LIMITED, ProviderErrorKind.OVERLOADED,
        ProviderErrorKind.SERVER_ERROR, ProviderErrorKind.TIMEOUT, ProviderErrorKind.CONNECTION,
        ProviderErrorKind.PROVIDER_UNREACHABLE, ProviderErrorKind.INVALID_RESPONSE);
    for (ProviderErrorKind k : ProviderErrorKind.values()) {
      assertEquals(retryable.contains(k), k.retryable(), k.name());
    }
  }

  @Test
  void quotaSignals_areSpecific() {
    assertTrue(QuotaSignals.indicateQuota("invalid_request_error", null,
        "Your credit balance is too low to access the Anthropic API."));
    assertTrue(QuotaSignals.indicateQuota("insufficient_quota", "insufficient_quota", "You exceeded your current quota"));
    assertFalse(QuotaSignals.indicateQuota("rate_limit_error", null,
        "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."));
    assertFalse(QuotaSignals.indicateQuota(null, "429", "Quota exceeded for metric: requests per minute"));
  }

  @Test
  void message_withoutStatus_saysKindAndRetryability() {
    ProviderException e = ProviderException.builder("anthropic", ProviderErrorKind.TIMEOUT)
        .message("no complete response\n within 300 ms")
        .build();

    assertEquals("anthropic: TIMEOUT (retryable): no complete response within 300 ms", e.getMessage());
    assertEquals(0, e.httpStatus());
  }

  @Test
  void message_isTruncated() {
    ProviderException e = ProviderException.builder("openai", ProviderErrorKind.SERVER_ERROR)
        .httpStatus(502).message("x".repeat(5_000)).build();

    assertEquals(ProviderException.MAX_PROVIDER_MESSAGE_CHARS + 1, e.providerMessage().length());
  }

  @Test
  void reply_rejectsUnknownFinishReasonAndNulls() {
    assertThrows(IllegalArgumentException.class, () -> new ProviderReply(List.of(), 1, 1, "m", "end_turn"));
    assertThrows(NullPointerException.class, () -> new ProviderReply(null, 1, 1, "m", "stop"));
    assertThrows(NullPointerException.class, () -> new ProviderReply(List.of(), 1, 1, null, "stop"));
  }
}
