package cp.activities;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs the activity implementations outside Temporal, on the calling thread, under an identity
 * the caller chooses.
 *
 * <p>The benchmark's plain-loop baseline uses this to make exactly the ledger writes and provider
 * calls a turn makes (same code, same idempotency keys derived from the given identity) with no
 * workflow, no history and no task round trips, so the difference it measures is the
 * orchestrator's alone. Inside a real activity nothing here is active.
 */
public final class DirectCalls {
  private static final ThreadLocal<ActivityIdentity> CURRENT = new ThreadLocal<>();

  private DirectCalls() {}

  /** The identity of the direct call running on this thread, or null inside Temporal. */
  static ActivityIdentity current() {
    return CURRENT.get();
  }

  /** Where the identity of each direct call comes from: the "workflow" and "activity" it stands for. */
  public interface IdentitySource {
    /** The workflow id, run id and a fresh activity id for the next call. */
    String[] next();
  }

  /**
   * A proxy of {@code type} that runs every method of {@code target} as a direct call whose
   * identity {@code ids} supplies (workflow id, run id, activity id).
   */
  public static <T> T proxy(Class<T> type, T target, IdentitySource ids) {
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
  public static <T> T run(String workflowId, String runId, String activityId, Supplier<T> call) {
    ActivityIdentity previous = CURRENT.get();
    CURRENT.set(new ActivityIdentity(workflowId, runId, activityId, 1, true));
    try {
      return call.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }
}
