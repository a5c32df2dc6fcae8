package cp.worker;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The activities this worker is running right now (type and workflow), so a draining worker can
 * say what it waits for and what it abandons. Local activities count too: they run on this worker
 * and their result is lost with it.
 *
 * <p>Thread safety: activity threads add and remove themselves; {@link #running()} may be called
 * from any thread and returns a snapshot.
 */
final class ActivitiesInFlight extends WorkerInterceptorBase {
  private final Map<Long, String> running = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private ActivityInfo info;

      @Override
      public void init(ActivityExecutionContext context) {
        info = context.getInfo();
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        long id = ids.incrementAndGet();
        running.put(id, info.getActivityType() + " of " + info.getWorkflowId() + " (attempt " + info.getAttempt() + ")");
        try {
          return super.execute(input);
        } finally {
          running.remove(id);
        }
      }
    };
  }

  /** One line per running activity, sorted. */
  List<String> running() {
    return running.values().stream().sorted().toList();
  }
}
