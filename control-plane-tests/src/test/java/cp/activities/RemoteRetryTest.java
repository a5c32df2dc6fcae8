package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.gateway.ProviderErrorKind;
import cp.model.WoState;
import cp.model.WorkOrder;
import cp.worker.TemporalOptions;
import cp.worker.WorkerSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two retry delays for one activity type: a round trip whose worker died (its timeout fired) is
 * tried again after the short crash interval, while a provider error keeps the provider backoff
 * (CP_RETRY_INITIAL_MS doubling), which the activity sets on the failure it throws.
 */
class RemoteRetryTest {
  static final Duration PROVIDER_BACKOFF = Duration.ofMillis(400);
  static final Duration CRASH_RETRY = Duration.ofMillis(10);
  static final WorkerSettings SETTINGS = Ho1Harness.FAST_RETRIES.withRetry(PROVIDER_BACKOFF, Duration.ofSeconds(2), 3)
      .withCrashRetryInterval(CRASH_RETRY);
  static final String CLASSIFY_JSON = "{\"speech_act\":\"greeting\",\"ambiguity\":\"low\"}";
  static Ho1Harness h;

  @TempDir Path home;
  final ScriptedProvider provider = new ScriptedProvider();

  @BeforeAll
  static void startService() {
    h = Ho1Harness.start(SETTINGS, 600);
  }

  @AfterAll
  static void stopService() {
    h.close();
  }

  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  @Test
  void remoteHo1Activities_retryAfterTheCrashInterval_localOnesAfterTheInitialInterval() {
    var options = TemporalOptions.implementationOptions(SETTINGS);
    for (String type : new String[] {"Ho1LlmRound", "Ho1ToolCall", "Ho1DegradedCall"}) {
      assertEquals(CRASH_RETRY, options.getActivityOptions().get(type).getRetryOptions().getInitialInterval(), type);
    }
    assertEquals(PROVIDER_BACKOFF, options.getDefaultLocalActivityOptions().getRetryOptions().getInitialInterval());
  }

  @Test
  void providerError_isRetriedAfterTheProviderBackoff_notTheCrashInterval() {
    h.plane(home, provider, new ToolLog());
    provider.thenFail(ProviderErrorKind.OVERLOADED, "overloaded").thenText(CLASSIFY_JSON, 10, 5);

    WorkOrder wo = h.run(WorkOrders.classify("hello")).workOrder();

    assertEquals(WoState.COMPLETED, wo.state());
    long gapNanos = provider.sentAtNanos.get(1) - provider.sentAtNanos.get(0);
    assertTrue(gapNanos >= PROVIDER_BACKOFF.toNanos(), "retried after " + gapNanos / 1_000_000 + " ms");
  }

  @Test
  void backoff_doublesPerAttempt_upToItsMaximum() {
    RetryBackoff b = new RetryBackoff(Duration.ofSeconds(1), Duration.ofSeconds(5));
    assertEquals(Duration.ofSeconds(1), b.after(1));
    assertEquals(Duration.ofSeconds(2), b.after(2));
    assertEquals(Duration.ofSeconds(4), b.after(3));
    assertEquals(Duration.ofSeconds(5), b.after(4));
    assertEquals(Duration.ofSeconds(5), b.after(30));
  }
}
