package cp.model;

import io.temporal.failure.ApplicationFailure;

/**
 * A refusal thrown where Temporal would otherwise show a client Java: an Update validator (the
 * SDK 1.38 wraps an {@code ApplicationFailure} thrown there, so the client saw the type
 * {@code io.temporal.internal.worker.WorkflowExecutionException}) and the unknown-Query handler
 * (whose error text is the exception's stack trace). The plane's failure converter
 * ({@code cp.worker.RefusalFailureConverter}) turns it into the non-retryable
 * {@code ApplicationFailure} {@link #toFailure()} describes; its text form is its message alone,
 * with no stack trace, so no Java class name reaches a client either way.
 */
public final class RefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String type;
  private final transient Refusal refusal;

  public RefusedException(String type, String message, Refusal refusal) {
    super(message, null, false, false);
    this.type = type;
    this.refusal = refusal;
  }

  public String type() {
    return type;
  }

  public Refusal refusal() {
    return refusal;
  }

  /** The failure a client receives: non-retryable, of {@link #type()}, the refusal as details[0], no stack trace. */
  public ApplicationFailure toFailure() {
    ApplicationFailure af = refusal == null ? ApplicationFailure.newNonRetryableFailure(getMessage(), type)
        : ApplicationFailure.newNonRetryableFailure(getMessage(), type, refusal);
    af.setStackTrace(new StackTraceElement[0]);
    return af;
  }

  /** The message alone: Temporal writes a failed Query's error as the exception's text. */
  @Override
  public String toString() {
    return getMessage();
  }
}
