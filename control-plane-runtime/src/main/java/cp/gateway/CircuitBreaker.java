package cp.gateway;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A per-provider circuit breaker: CLOSED, OPEN after consecutive failures, HALF_OPEN for one trial.
 *
 * <p>CLOSED lets every call through and counts consecutive failures; a success resets the
 * count. When the count reaches {@link CircuitBreakerConfig#failureThreshold()} the circuit
 * OPENs and refuses calls for {@link CircuitBreakerConfig#cooldown()}. Once the cooldown has
 * passed the circuit is HALF_OPEN: the first {@link #tryAcquire()} gets the single trial call
 * and everyone else is refused until the trial reports back. A successful trial CLOSEs the
 * circuit; a failed one OPENs it again for a fresh cooldown.
 *
 * <p>The caller decides what counts as a failure. Only provider-health failures (429, 529,
 * 5xx, timeouts, connection errors) should be reported with {@link #onFailure()}; a request
 * the provider rejected on its merits (400, 401, 403, quota) says nothing about the
 * provider's health, so the caller reports neither outcome for it, or {@link #onSuccess()}
 * when it wants such an answer to count as proof the provider is up.
 *
 * <p>Callers report exactly one outcome per acquired call. An outcome reported while the
 * circuit is OPEN (a call that started before it opened) is ignored; while HALF_OPEN the
 * outcome is taken as the trial's. Time comes from an injected monotonic nanosecond source so
 * tests can move it; all methods are synchronized, which is cheap next to an LLM round trip.
 */
public final class CircuitBreaker {
  /** The three classic states. */
  public enum State {
    CLOSED, OPEN, HALF_OPEN;

    /** The state as the {@code cp_circuit_breaker_state} gauge reports it: 0 closed, 1 half-open, 2 open. */
    public int gaugeCode() {
      return switch (this) {
        case CLOSED -> 0;
        case HALF_OPEN -> 1;
        case OPEN -> 2;
      };
    }
  }

  private final String providerId;
  private final CircuitBreakerConfig config;
  private final LongSupplier nanoTime;

  private State state = State.CLOSED;
  private int consecutiveFailures;
  private long openedAtNanos;
  private boolean trialInFlight;

  /** A breaker on the system's monotonic clock. */
  public CircuitBreaker(String providerId, CircuitBreakerConfig config) {
    this(providerId, config, System::nanoTime);
  }

  /**
   * A breaker on an injected clock.
   *
   * @param nanoTime monotonic nanoseconds, like {@link System#nanoTime()}
   */
  public CircuitBreaker(String providerId, CircuitBreakerConfig config, LongSupplier nanoTime) {
    this.providerId = Objects.requireNonNull(providerId, "providerId");
    this.config = Objects.requireNonNull(config, "config");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  public String providerId() {
    return providerId;
  }

  public CircuitBreakerConfig config() {
    return config;
  }

  /**
   * Asks to make one call. True when CLOSED, or when this caller gets the HALF_OPEN trial;
   * false while OPEN or while another caller's trial is in flight.
   */
  public synchronized boolean tryAcquire() {
    return switch (advance()) {
      case CLOSED -> true;
      case HALF_OPEN -> {
        boolean granted = !trialInFlight;
        trialInFlight = true;
        yield granted;
      }
      case OPEN -> false;
    };
  }

  /** The acquired call succeeded: resets the failure count, and closes a half-open circuit. */
  public synchronized void onSuccess() {
    switch (advance()) {
      case CLOSED -> consecutiveFailures = 0;
      case HALF_OPEN -> close();
      default -> { } // a call from before the circuit opened; the cooldown stands
    }
  }

  /** The acquired call failed for provider-health reasons (the caller decides which those are). */
  public synchronized void onFailure() {
    switch (advance()) {
      case CLOSED -> {
        consecutiveFailures++;
        if (consecutiveFailures >= config.failureThreshold()) {
          open();
        }
      }
      case HALF_OPEN -> open();
      default -> { } // already open; a late failure does not extend the cooldown
    }
  }

  /** The current state; an OPEN circuit whose cooldown has passed reports HALF_OPEN. */
  public synchronized State state() {
    return advance();
  }

  /**
   * How long until an OPEN circuit lets a trial through; the router uses it as the next retry
   * delay. Zero when CLOSED or HALF_OPEN (a refusal while HALF_OPEN means a trial is in flight,
   * so the caller should fall back to its own minimum retry delay).
   */
  public synchronized Duration remainingCooldown() {
    if (advance() != State.OPEN) {
      return Duration.ZERO;
    }
    long remaining = config.cooldown().toNanos() - (nanoTime.getAsLong() - openedAtNanos);
    return Duration.ofNanos(Math.max(0, remaining));
  }

  /** Failures counted since the last success while CLOSED. */
  public synchronized int consecutiveFailures() {
    return consecutiveFailures;
  }

  @Override
  public synchronized String toString() {
    return "CircuitBreaker[" + providerId + " " + state + ", failures=" + consecutiveFailures + "]";
  }

  /** Moves OPEN to HALF_OPEN once the cooldown has passed; returns the resulting state. */
  private State advance() {
    if (state == State.OPEN && nanoTime.getAsLong() - openedAtNanos >= config.cooldown().toNanos()) {
      state = State.HALF_OPEN;
      trialInFlight = false;
    }
    return state;
  }

  private void open() {
    state = State.OPEN;
    openedAtNanos = nanoTime.getAsLong();
    trialInFlight = false;
  }

  private void close() {
    state = State.CLOSED;
    consecutiveFailures = 0;
    trialInFlight = false;
  }
}
