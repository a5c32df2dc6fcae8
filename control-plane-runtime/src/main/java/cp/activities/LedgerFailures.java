package cp.activities;

import cp.ledger.LedgerProblem;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * Turns a ledger that refuses an append, in any activity (remote or local), into a Temporal
 * failure that says so: type {@code ledger_unwritable} and not retryable when no retry can help
 * (a broken chain, a file that refuses writes), type {@code ledger_full} when the disk is full.
 * The message is the ledger's one line (which ledger, what is wrong, what to run), never a Java
 * class name. Without this, such a failure is an unclassified exception that Temporal retries to
 * the last attempt.
 *
 * <p>A full disk is retried, with the activity's backoff, only in a remote activity. A local
 * activity runs inside a workflow task: retrying it with a backoff that outlasts the task's
 * timeout restarts it from its first attempt for ever (the hang of issue 11: a DEGRADATION write
 * that never ended and a turn that never answered). So a local write on a full disk fails at once
 * and the workflow decides: the turn answers with the ledger's line, an explicit {@code end} fails
 * and can be repeated, an expired session waits a minute and writes SESSION_END again.
 */
public final class LedgerFailures extends WorkerInterceptorBase {

  /**
   * The failure to throw for {@code e}, or empty when {@code e} is not a refused ledger append;
   * {@code local}: thrown from a local activity (then never retryable).
   */
  public static Optional<ApplicationFailure> toFailure(Throwable e, boolean local) {
    if (e instanceof ApplicationFailure) {
      return Optional.empty();
    }
    return LedgerProblem.of(e).map(p -> ApplicationFailure.newBuilder().setType(p.failureCode().wire())
        .setMessage(p.message()).setNonRetryable(local || !p.failureCode().retryable()).build());
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      private boolean local;

      @Override
      public void init(ActivityExecutionContext context) {
        local = context.getInfo().isLocal();
        super.init(context);
      }

      @Override
      public ActivityOutput execute(ActivityInput input) {
        try {
          return super.execute(input);
        } catch (RuntimeException e) {
          Optional<ApplicationFailure> f = toFailure(e, local);
          if (f.isPresent()) {
            throw f.get();
          }
          throw e;
        }
      }
    };
  }
}
