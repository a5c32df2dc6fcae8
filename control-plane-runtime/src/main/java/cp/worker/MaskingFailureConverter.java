package cp.worker;

import cp.observability.SecretMasker;
import io.temporal.api.failure.v1.Failure;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.FailureConverter;
import java.util.Objects;

/**
 * The failure converter every client and worker of the plane uses, wrapped so that no failure
 * carries a secret into Temporal's history (issue 20 §1): the message and stack trace of a failure
 * and of each of its causes pass the {@link SecretMasker} (a provider's error quoting the API key in
 * part, a tool's error quoting a file). Types, details and retry settings are untouched, so failure
 * codes still work; decoding (history to exception) is the wrapped converter's.
 *
 * <p>Thread safety: as the wrapped converter's; masking is a pure function of the text and the
 * masker's secrets, so workflow code that converts failures stays deterministic.
 */
public final class MaskingFailureConverter implements FailureConverter {
  private final FailureConverter delegate;
  private final SecretMasker masker;

  public MaskingFailureConverter(FailureConverter delegate, SecretMasker masker) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.masker = Objects.requireNonNull(masker, "masker");
  }

  @Override
  public RuntimeException failureToException(Failure failure, DataConverter dataConverter) {
    return delegate.failureToException(failure, dataConverter);
  }

  @Override
  public Failure exceptionToFailure(Throwable throwable, DataConverter dataConverter) {
    return mask(delegate.exceptionToFailure(throwable, dataConverter));
  }

  private Failure mask(Failure f) {
    String message = masker.mask(f.getMessage());
    String trace = masker.mask(f.getStackTrace());
    boolean same = message.equals(f.getMessage()) && trace.equals(f.getStackTrace());
    if (same && !f.hasCause()) {
      return f;
    }
    Failure.Builder b = f.toBuilder().setMessage(message).setStackTrace(trace);
    if (f.hasCause()) {
      b.setCause(mask(f.getCause()));
    }
    return b.build();
  }
}
