package cp.gateway;

import cp.model.PromptRequest;

/**
 * Checks, before any byte is sent, what every provider would reject anyway.
 *
 * <p>Failing locally with {@link ProviderErrorKind#BAD_REQUEST} saves a billed round trip and
 * gives a clearer message than the provider's.
 */
public final class SendableRequest {
  private SendableRequest() {}

  /** The model to ask: the request's own, else the configured default. */
  public static String model(PromptRequest request, ProviderSettings settings) {
    String m = request.model();
    return m == null || m.isBlank() ? settings.defaultModel() : m.strip();
  }

  /** Throws BAD_REQUEST (status 0) when {@code request} cannot be sent as it is. */
  public static void check(String providerId, PromptRequest request) throws ProviderException {
    if (request.maxTokens() <= 0) {
      throw local(providerId, "max_tokens must be positive, was " + request.maxTokens()
          + " (contract " + request.contractId() + ")");
    }
    if (request.messages().isEmpty()) {
      throw local(providerId, "request has no messages (contract " + request.contractId() + ")");
    }
  }

  private static ProviderException local(String providerId, String message) {
    return ProviderException.builder(providerId, ProviderErrorKind.BAD_REQUEST)
        .message("not sent: " + message)
        .build();
  }
}
