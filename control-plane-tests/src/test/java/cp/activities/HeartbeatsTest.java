package cp.activities;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import cp.gateway.http.InFlightCallsAccess;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.client.ActivityCanceledException;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityNotExistsException;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

/**
 * Which heartbeat failures cut the provider call in flight. A cancel the service asked for (the
 * turn passed its deadline) or an attempt the service no longer knows (its workflow closed) does:
 * nobody waits for that answer. When the heartbeat cannot reach the service (the SDK then says the
 * heartbeat "timed out locally"), the call was sent and will be paid for: it runs to its answer,
 * which the gateway records and the next attempt reuses. Before, it was cut, recorded as a $0
 * connection error with its reservation released, and the next attempt sent it again (seen with the
 * dev-server stopped for 20 s during a 25 s call).
 */
class HeartbeatsTest {
  private final OkHttpClient client = new OkHttpClient();

  /** Whether a provider call made while the heartbeat fails with {@code failure} was cancelled. */
  private boolean callCutBy(ActivityCompletionException failure) throws Exception {
    ActivityInfo info = mock(ActivityInfo.class);
    when(info.getHeartbeatTimeout()).thenReturn(Duration.ofMillis(400));
    when(info.isLocal()).thenReturn(false);
    ActivityExecutionContext ctx = mock(ActivityExecutionContext.class);
    when(ctx.getInfo()).thenReturn(info);
    doThrow(failure).when(ctx).heartbeat(any());
    Call call = client.newCall(new Request.Builder().url("http://127.0.0.1:9/").build());
    return Heartbeats.during(ctx, () -> {
      InFlightCallsAccess.started(call);
      Thread.sleep(600); // several beats (every 100 ms), each failing
      InFlightCallsAccess.finished(call);
      return call.isCanceled();
    });
  }

  @Test
  void aCancelTheServiceAskedFor_cutsTheCall() throws Exception {
    assertTrue(callCutBy(new ActivityCanceledException(mock(ActivityInfo.class))));
  }

  @Test
  void aHeartbeatThatTimedOutLocally_serviceUnreachable_letsTheCallFinish() throws Exception {
    assertFalse(callCutBy(new ActivityCanceledException(mock(ActivityInfo.class),
        new TimeoutFailure(null, null, TimeoutType.TIMEOUT_TYPE_HEARTBEAT))));
  }

  @Test
  void anAttemptTheServiceNoLongerKnows_itsWorkflowClosed_cutsTheCall() throws Exception {
    assertTrue(callCutBy(new ActivityNotExistsException(mock(ActivityInfo.class), new RuntimeException("not found"))));
  }
}
