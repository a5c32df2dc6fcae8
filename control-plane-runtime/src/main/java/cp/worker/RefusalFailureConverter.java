package cp.worker;

import cp.model.RefusedException;
import io.temporal.api.failure.v1.Failure;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.FailureConverter;
import io.temporal.failure.DefaultFailureConverter;

/**
 * Temporal's failure converter, except that a {@link RefusedException} becomes the
 * {@code ApplicationFailure} it describes (type {@code turn_refused}, say, with its code as
 * details[0] and no stack trace) instead of a failure typed with a Java class name.
 */
public final class RefusalFailureConverter implements FailureConverter {
  private final DefaultFailureConverter standard = new DefaultFailureConverter();

  @Override
  public RuntimeException failureToException(Failure failure, DataConverter dataConverter) {
    return standard.failureToException(failure, dataConverter);
  }

  @Override
  public Failure exceptionToFailure(Throwable throwable, DataConverter dataConverter) {
    if (throwable instanceof RefusedException r) {
      return standard.exceptionToFailure(r.toFailure(), dataConverter);
    }
    return standard.exceptionToFailure(throwable, dataConverter);
  }
}
