package cp.activities;

import cp.ledger.LedgerProblem;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * Turns a ledger that refuses an append, in any activity (remote or local), into a Temporal
 * failure that says so: type {@code ledger_unwritable} and not retryable when no retry can help
 * (a broken chain, a file that refuses writes), type {@code ledger_full} and retried with the
 * activity's backoff when the disk is full. The message is the ledger's one line (which ledger,
 * what is wrong, what to run), never a Java class name. Without this, such a failure is an
 * unclassified exception that Temporal retries to the last attempt.
 */
public final class LedgerFailures extends WorkerInterceptorBase {

  /** The failure to throw for {@code e}, or empty when {@code e} is not a refused ledger append. */
  public static Optional<ApplicationFailure> toFailure(Throwable e) {
    if (e instanceof ApplicationFailure) {
      return Optional.empty();
    }
    return LedgerProblem.of(e).map(p -> ApplicationFailure.newBuilder().setType(p.failureType())
        .setMessage(p.message()).setNonRetryable(!p.transientProblem()).build());
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new ActivityInboundCallsInterceptorBase(next) {
      @Override
      public ActivityOutput execute(ActivityInput input) {
        try {
          return super.execute(input);
        } catch (RuntimeException e) {
          Optional<ApplicationFailure> f = toFailure(e);
          if (f.isPresent()) {
            throw f.get();
          }
          throw e;
        }
      }
    };
  }
}
