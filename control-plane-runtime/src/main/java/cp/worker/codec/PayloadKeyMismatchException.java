package cp.worker.codec;

import io.temporal.payload.codec.PayloadCodecException;

/** A payload was sealed under another key than the one configured; the message names both key ids. */
public final class PayloadKeyMismatchException extends PayloadCodecException {
  private static final long serialVersionUID = 1L;
  private final String payloadKeyId;
  private final String configuredKeyId;

  public PayloadKeyMismatchException(String payloadKeyId, String configuredKeyId) {
    super(configuredKeyId == null
        ? "payload is encrypted (key id " + payloadKeyId + ") but " + PayloadKey.VARIABLE + " is not set: set it to"
            + " the key of the workers that wrote this history"
        : "payload is encrypted with key id " + payloadKeyId + " but " + PayloadKey.VARIABLE + " has key id "
            + configuredKeyId + ": set " + PayloadKey.VARIABLE + " to the key of the workers that wrote this history");
    this.payloadKeyId = payloadKeyId;
    this.configuredKeyId = configuredKeyId;
  }

  /** The key id in the payload's metadata. */
  public String payloadKeyId() {
    return payloadKeyId;
  }

  /** The configured key's id, or null when no key is configured. */
  public String configuredKeyId() {
    return configuredKeyId;
  }
}
