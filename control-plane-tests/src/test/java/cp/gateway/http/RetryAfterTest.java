package cp.gateway.http;

import static cp.gateway.ProviderFixtures.FIXED_CLOCK;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
  private static Optional<Duration> parse(String... namesAndValues) {
    return RetryAfter.from(Headers.of(namesAndValues), FIXED_CLOCK);
  }

  @Test
  void seconds_fractionalSeconds_andMilliseconds() {
    assertEquals(Optional.of(Duration.ofSeconds(30)), parse("retry-after", "30"));
    assertEquals(Optional.of(Duration.ofMillis(1500)), parse("retry-after", "1.5"));
    assertEquals(Optional.of(Duration.ofMillis(250)), parse("retry-after-ms", "250"));
    assertEquals(Optional.of(Duration.ofMillis(250)), parse("Retry-After-Ms", "250", "Retry-After", "9"));
  }

  @Test
  void httpDate_inFutureOrPast() {
    assertEquals(Optional.of(Duration.ofSeconds(90)), parse("retry-after", "Wed, 01 Jan 2025 00:01:30 GMT"));
    assertEquals(Optional.of(Duration.ZERO), parse("retry-after", "Tue, 31 Dec 2024 23:59:00 GMT"));
  }

  @Test
  void absentNegativeOrGarbage_isEmpty() {
    assertEquals(Optional.empty(), parse());
    assertEquals(Optional.empty(), parse("retry-after", "-5"));
    assertEquals(Optional.empty(), parse("retry-after", "soon"));
    assertEquals(Optional.empty(), parse("retry-after-ms", "NaN"));
  }
}
