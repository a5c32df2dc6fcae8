package cp.gateway;
import java.time.Duration;
import java.util.Optional;
/** STUB replaced by the providers branch. */
public class ProviderException extends Exception {
  private static final long serialVersionUID = 1L;
  private final ProviderErrorKind kind;
  private final int httpStatus;
  private final Duration retryAfter;
  public ProviderException(ProviderErrorKind kind, int httpStatus, Duration retryAfter, String message) {
    super(message); this.kind = kind; this.httpStatus = httpStatus; this.retryAfter = retryAfter;
  }
  public ProviderErrorKind kind() { return kind; }
  public int httpStatus() { return httpStatus; }
  public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }
  public boolean retryable() { return kind.retryable(); }
}
