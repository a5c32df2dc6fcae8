package cp.activities;

import java.time.Duration;
import java.util.Objects;

/**
 * When a failed provider call is tried again: {@code initial} doubling per attempt up to
 * {@code max}, as a retry policy would. The activity sets it on the failure it throws, so a
 * provider error waits this long while a call whose worker died (which throws nothing: its
 * timeout fires) comes back after the retry policy's much shorter first interval.
 */
public record RetryBackoff(Duration initial, Duration max) {
  /** The doubling factor: Temporal's default, and the coefficient of every retry policy TemporalOptions builds. */
  public static final double COEFFICIENT = 2.0;

  public RetryBackoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
  }

  /** The delay before the attempt after {@code failedAttempt} (1-based). */
  public Duration after(int failedAttempt) {
    double millis = initial.toMillis() * Math.pow(COEFFICIENT, Math.max(0, failedAttempt - 1));
    return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
  }
}
