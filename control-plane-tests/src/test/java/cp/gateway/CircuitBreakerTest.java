package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.CircuitBreaker.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {
  private static final int THRESHOLD = 3;
  private static final Duration COOLDOWN = Duration.ofSeconds(10);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final CircuitBreaker breaker =
      new CircuitBreaker("anthropic", new CircuitBreakerConfig(THRESHOLD, COOLDOWN), now::get);
  private ExecutorService pool;

  @AfterEach
  void stopPool() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  private void failCalls(int n) {
    for (int i = 0; i < n; i++) {
      assertTrue(breaker.tryAcquire(), "call " + i + " should be admitted");
      breaker.onFailure();
    }
  }

  @Test
  void defaults_areFiveFailuresAndThirtySeconds() {
    assertEquals(5, CircuitBreakerConfig.DEFAULTS.failureThreshold());
    assertEquals(Duration.ofSeconds(30), CircuitBreakerConfig.DEFAULTS.cooldown());
  }

  @Test
  void config_rejectsZeroThresholdAndNegativeCooldown() {
    assertThrows(IllegalArgumentException.class, () -> new CircuitBreakerConfig(0, COOLDOWN));
    assertThrows(IllegalArgumentException.class, () -> new CircuitBreakerConfig(1, Duration.ofSeconds(-1)));
  }

  @Test
  void newBreaker_isClosedAndAdmitsCalls() {
    assertEquals(State.CLOSED, breaker.state());
    assertTrue(breaker.tryAcquire());
    assertEquals(Duration.ZERO, breaker.remainingCooldown());
  }

  @Test
  void opensAfterExactlyThresholdConsecutiveFailures() {
    failCalls(THRESHOLD - 1);
    assertEquals(State.CLOSED, breaker.state());
    assertEquals(THRESHOLD - 1, breaker.consecutiveFailures());

    failCalls(1);
    assertEquals(State.OPEN, breaker.state());
  }

  @Test
  void successInBetween_resetsTheFailureCount() {
    failCalls(THRESHOLD - 1);
    assertTrue(breaker.tryAcquire());
    breaker.onSuccess();
    failCalls(THRESHOLD - 1);
    assertEquals(State.CLOSED, breaker.state());
  }

  @Test
  void whileOpen_refusesCallsUntilCooldownPasses() {
    failCalls(THRESHOLD);
    advance(COOLDOWN.minusMillis(1));
    assertFalse(breaker.tryAcquire());
    assertFalse(breaker.tryAcquire());
    assertEquals(State.OPEN, breaker.state());
  }

  @Test
  void remainingCooldown_decreasesAsTimePasses() {
    failCalls(THRESHOLD);
    assertEquals(COOLDOWN, breaker.remainingCooldown());
    advance(Duration.ofSeconds(4));
    assertEquals(Duration.ofSeconds(6), breaker.remainingCooldown());
    advance(Duration.ofSeconds(6));
    assertEquals(Duration.ZERO, breaker.remainingCooldown());
  }

  @Test
  void afterCooldown_halfOpensAndAdmitsExactlyOneTrial() {
    failCalls(THRESHOLD);
    advance(COOLDOWN);
    assertEquals(State.HALF_OPEN, breaker.state());

    assertTrue(breaker.tryAcquire(), "the first caller gets the trial");
    assertFalse(breaker.tryAcquire(), "a second caller is refused while the trial is in flight");
    assertEquals(State.HALF_OPEN, breaker.state());
  }

  @Test
  void successfulTrial_closesTheCircuit() {
    failCalls(THRESHOLD);
    advance(COOLDOWN);
    assertTrue(breaker.tryAcquire());
    breaker.onSuccess();

    assertEquals(State.CLOSED, breaker.state());
    assertEquals(0, breaker.consecutiveFailures());
    assertTrue(breaker.tryAcquire());
    assertTrue(breaker.tryAcquire());
  }

  @Test
  void failedTrial_reopensForAFreshCooldown() {
    failCalls(THRESHOLD);
    advance(COOLDOWN.plusSeconds(5));
    assertTrue(breaker.tryAcquire());
    breaker.onFailure();

    assertEquals(State.OPEN, breaker.state());
    assertEquals(COOLDOWN, breaker.remainingCooldown());
    assertFalse(breaker.tryAcquire());
  }

  @Test
  void lateFailureWhileOpen_doesNotExtendTheCooldown() {
    failCalls(THRESHOLD);
    advance(Duration.ofSeconds(4));
    breaker.onFailure();
    assertEquals(Duration.ofSeconds(6), breaker.remainingCooldown());
  }

  @Test
  void concurrentCallersAfterCooldown_exactlyOneGetsTheTrial() throws Exception {
    int threads = 16;
    failCalls(THRESHOLD);
    advance(COOLDOWN);
    pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Callable<Boolean> caller = () -> {
        start.await();
        return breaker.tryAcquire();
      };
      results.add(pool.submit(caller));
    }
    start.countDown();
    int admitted = 0;
    for (Future<Boolean> f : results) {
      admitted += f.get(5, TimeUnit.SECONDS) ? 1 : 0;
    }
    assertEquals(1, admitted);
  }

  @Test
  void concurrentFailures_openTheCircuitWithoutLosingCounts() throws Exception {
    int threads = 8;
    CircuitBreaker big = new CircuitBreaker("openai", new CircuitBreakerConfig(threads * 100, COOLDOWN), now::get);
    pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger admitted = new AtomicInteger();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < 100; i++) {
          if (big.tryAcquire()) {
            admitted.incrementAndGet();
            big.onFailure();
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get(5, TimeUnit.SECONDS);
    }
    assertEquals(threads * 100, admitted.get());
    assertEquals(State.OPEN, big.state());
    assertFalse(big.tryAcquire());
  }
}
