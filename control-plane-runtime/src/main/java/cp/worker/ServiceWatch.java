package cp.worker;

import cp.model.RootCause;
import io.grpc.health.v1.HealthCheckResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Tells a long-running process, once per change, when its Temporal service stops answering and
 * when it answers again.
 *
 * <p>The SDK's pollers ride out an outage silently, retrying for as long as it lasts; an operator
 * watching a worker would see nothing while the service is gone, and nothing that says a
 * restarted in-memory service ({@code cpctl dev-server}) has forgotten every session it held.
 * This checks the service's gRPC health every {@link #INTERVAL} and reports the two transitions.
 */
public final class ServiceWatch implements AutoCloseable {
  /** How often the service is asked whether it is serving. */
  public static final Duration INTERVAL = Duration.ofSeconds(2);

  /** Hears the transitions; called on the watch's own thread. */
  public interface Listener {
    /** The service stopped answering; {@code reason} is the innermost error message. */
    void lost(String reason);

    /** The service answers again after {@link #lost}. */
    void back();
  }

  private final TemporalConnection connection;
  private final Listener listener;
  private final ScheduledExecutorService timer;
  private boolean down;

  private ServiceWatch(TemporalConnection connection, Listener listener) {
    this.connection = connection;
    this.listener = listener;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "temporal-service-watch");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts watching {@code connection} every {@code interval}. */
  public static ServiceWatch start(TemporalConnection connection, Duration interval, Listener listener) {
    ServiceWatch w = new ServiceWatch(connection, listener);
    w.timer.scheduleWithFixedDelay(w::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return w;
  }

  private void check() {
    String problem;
    try {
      HealthCheckResponse r = connection.service().healthCheck();
      problem = r.getStatus() == HealthCheckResponse.ServingStatus.SERVING ? null : "status " + r.getStatus();
    } catch (RuntimeException e) {
      problem = RootCause.innermostMessage(e);
    }
    if (problem != null && !down) {
      down = true;
      listener.lost(problem);
    } else if (problem == null && down) {
      down = false;
      listener.back();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
