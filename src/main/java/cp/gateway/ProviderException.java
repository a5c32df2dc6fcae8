package cp.gateway;

/**
 * A provider round trip failed.
 *
 * <p>Placeholder so the offline branch compiles against the provider SPI; the providers branch
 * owns the real class (with retryability and status), and the lead reconciles the two.
 */
public class ProviderException extends Exception {
  public ProviderException(String message) {
    super(message);
  }
}
