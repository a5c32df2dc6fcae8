package cp.bench;

import cp.activities.ActivityContextSource;
import cp.activities.ActivityIdentity;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Runs the activity implementations outside Temporal, on the calling thread, under an identity
 * the caller chooses: the {@link ActivityContextSource} the plain loop builds its activities with
 * ({@code PlaneRuntime.activities(source)}), and proxies that give each call its identity.
 *
 * <p>The plain-loop baseline uses this to make exactly the ledger writes and provider calls a
 * turn makes (same code, same idempotency keys derived from the given identity) with no workflow,
 * no history and no task round trips. The product's activities know nothing of it: they ask
 * their source, which in a worker is Temporal's.
 */
final class DirectActivities implements ActivityContextSource {
  /** The identity of the direct call running on each thread (the benchmark's own state). */
  private final ThreadLocal<ActivityIdentity> current = new ThreadLocal<>();

  /** Where the identity of each direct call comes from: the "workflow" and "activity" it stands for. */
  interface IdentitySource {
    /** The workflow id, run id and a fresh activity id for the next call. */
    String[] next();
  }

  @Override
  public ActivityIdentity identity() {
    ActivityIdentity id = current.get();
    if (id == null) {
      throw new IllegalStateException("an activity built on DirectActivities ran outside one of its proxies");
    }
    return id;
  }

  /** No heartbeats: nobody times a direct call out. */
  @Override
  public <T> T heartbeating(Callable<T> call) throws Exception {
    return call.call();
  }

  /**
   * A proxy of {@code type} that runs every method of {@code target} as a direct call whose
   * identity {@code ids} supplies (workflow id, run id, activity id).
   */
  <T> T proxy(Class<T> type, T target, IdentitySource ids) {
    Objects.requireNonNull(target, "target");
    InvocationHandler h = (p, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return method.invoke(target, args);
      }
      String[] id = ids.next();
      return run(id[0], id[1], id[2], () -> {
        try {
          return method.invoke(target, args);
        } catch (InvocationTargetException e) {
          throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      });
    };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
  }

  /** Runs {@code call} as if it were activity {@code activityId} of the given workflow run, attempt 1. */
  <T> T run(String workflowId, String runId, String activityId, Supplier<T> call) {
    ActivityIdentity previous = current.get();
    current.set(new ActivityIdentity(workflowId, runId, activityId, 1, true));
    try {
      return call.get();
    } finally {
      if (previous == null) {
        current.remove();
      } else {
        current.set(previous);
      }
    }
  }
}
