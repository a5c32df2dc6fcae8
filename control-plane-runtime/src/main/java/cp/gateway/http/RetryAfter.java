package cp.gateway.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import okhttp3.Headers;

/**
 * Reads the delay a server asks for before the next attempt.
 *
 * <p>Precedence: {@code retry-after-ms} (Anthropic and OpenAI send it; milliseconds, possibly
 * fractional) over {@code retry-after} (RFC 9110: delay-seconds or an HTTP-date; fractional
 * seconds are accepted as OpenAI's SDK does). Unparseable or negative values are ignored; a
 * date in the past means "now" ({@link Duration#ZERO}).
 */
public final class RetryAfter {
  /** Milliseconds; non-standard but sent by Anthropic and OpenAI and honoured by their SDKs. */
  public static final String RETRY_AFTER_MS = "retry-after-ms";
  /** RFC 9110 section 10.2.3. */
  public static final String RETRY_AFTER = "retry-after";

  private RetryAfter() {}

  public static Optional<Duration> from(Headers headers, Clock clock) {
    Optional<Duration> ms = millis(headers.get(RETRY_AFTER_MS));
    if (ms.isPresent()) {
      return ms;
    }
    String value = headers.get(RETRY_AFTER);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    Optional<Duration> seconds = seconds(value);
    if (seconds.isPresent()) {
      return seconds;
    }
    Date date = headers.getDate(RETRY_AFTER);
    if (date == null) {
      return Optional.empty();
    }
    Duration until = Duration.between(Instant.now(clock), date.toInstant());
    return Optional.of(until.isNegative() ? Duration.ZERO : until);
  }

  private static Optional<Duration> millis(String value) {
    return number(value).map(n -> Duration.ofNanos(Math.round(n * 1_000_000)));
  }

  private static Optional<Duration> seconds(String value) {
    return number(value).map(n -> Duration.ofMillis(Math.round(n * 1_000)));
  }

  private static Optional<Double> number(String value) {
    if (value == null) {
      return Optional.empty();
    }
    try {
      double n = Double.parseDouble(value.strip());
      return n >= 0 && Double.isFinite(n) ? Optional.of(n) : Optional.empty();
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
