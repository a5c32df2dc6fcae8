package cp.gateway;
/** STUB replaced by the providers branch. */
public enum ProviderErrorKind {
  RATE_LIMITED(true), OVERLOADED(true), SERVER_ERROR(true), TIMEOUT(true), CONNECTION(true), BAD_REQUEST(false),
  AUTHENTICATION(false), PERMISSION(false), NOT_FOUND(false), REQUEST_TOO_LARGE(false), QUOTA_EXCEEDED(false),
  INVALID_RESPONSE(true), UNKNOWN(false);
  private final boolean retryable;
  ProviderErrorKind(boolean r) { retryable = r; }
  public boolean retryable() { return retryable; }
}
