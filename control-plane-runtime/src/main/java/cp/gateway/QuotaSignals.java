package cp.gateway;

import java.util.List;
import java.util.Locale;

/**
 * Recognises "out of money" errors, which providers send with ordinary statuses.
 *
 * <p>Anthropic reports a too-low credit balance or a reached spend limit as
 * {@code 400 invalid_request_error} (or {@code 402 billing_error}); OpenAI reports an
 * exhausted quota as {@code 429 insufficient_quota}. Retrying either only burns attempts until
 * someone adds credit, so they become {@link ProviderErrorKind#QUOTA_EXCEEDED}. The markers are
 * deliberately specific: a bare "quota" also appears in per-minute rate-limit messages of some
 * OpenAI-compatible services, which are retryable.
 */
public final class QuotaSignals {
  /** Error types and codes that always mean quota or billing. */
  private static final List<String> CODES = List.of(
      "insufficient_quota", "billing_error", "billing_hard_limit_reached", "billing_not_active");

  /** Phrases from real provider messages (lower case). */
  private static final List<String> PHRASES = List.of(
      "credit balance", "billing", "spend limit", "spending limit", "usage limit",
      "exceeded your current quota", "purchase credits");

  private QuotaSignals() {}

  /** True when the provider's error type, code or message says the account is out of quota. */
  public static boolean indicateQuota(String type, String code, String message) {
    return isQuotaCode(type, code) || isQuotaMessage(message);
  }

  /** True when the error type or code alone says quota or billing; the most reliable signal. */
  public static boolean isQuotaCode(String type, String code) {
    return CODES.contains(lower(type)) || CODES.contains(lower(code));
  }

  /**
   * True when the message speaks of credit, billing or spend limits. Weaker than a code: OpenAI's
   * free-tier rate-limit message links to {@code /account/billing}, so callers let an explicit
   * rate-limit code win over this.
   */
  public static boolean isQuotaMessage(String message) {
    String text = lower(message);
    return PHRASES.stream().anyMatch(text::contains);
  }

  private static String lower(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT);
  }
}
