package cp.gateway.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

/** Cancelling an activity's provider call reaches that activity's call and no other (review of issue 11). */
class InFlightCallsTest {
  private final OkHttpClient client = new OkHttpClient();

  private Call newCall() {
    return client.newCall(new Request.Builder().url("http://127.0.0.1:9/").build());
  }

  @Test
  void cancelBetweenTwoAttempts_cancelsTheNextAttemptAsItStarts() {
    try (InFlightCalls.Scope scope = InFlightCalls.open()) {
      Call first = newCall();
      InFlightCalls.started(first);
      InFlightCalls.finished(first);
      scope.cancel(); // lands while no call is in flight (between a stale-connection retry's attempts)
      Call second = newCall();
      InFlightCalls.started(second);
      assertTrue(second.isCanceled(), "the attempt after the cancel must not run to its read timeout");
      InFlightCalls.finished(second);
    }
  }

  @Test
  void lateCancelOfAFinishedActivity_leavesTheNextActivitysCallOnTheSameThreadAlone() {
    InFlightCalls.Scope finished;
    try (InFlightCalls.Scope scope = InFlightCalls.open()) {
      finished = scope;
    }
    // The pooled activity thread runs the next activity; the first activity's heartbeat tick fires late.
    try (InFlightCalls.Scope next = InFlightCalls.open()) {
      Call call = newCall();
      InFlightCalls.started(call);
      finished.cancel();
      assertFalse(call.isCanceled(), "another activity's provider call was cancelled");
      next.cancel();
      assertTrue(call.isCanceled());
      InFlightCalls.finished(call);
    }
  }

  @Test
  void callsOutsideAnActivity_areNotTracked() {
    Call call = newCall();
    InFlightCalls.started(call);
    InFlightCalls.finished(call);
    assertFalse(call.isCanceled());
  }
}
