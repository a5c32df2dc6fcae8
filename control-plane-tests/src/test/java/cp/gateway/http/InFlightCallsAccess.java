package cp.gateway.http;

import okhttp3.Call;

/** Test access to the package's hooks: what {@link ProviderHttpClient} does around a provider call. */
public final class InFlightCallsAccess {
  private InFlightCallsAccess() {}

  public static void started(Call call) {
    InFlightCalls.started(call);
  }

  public static void finished(Call call) {
    InFlightCalls.finished(call);
  }
}
