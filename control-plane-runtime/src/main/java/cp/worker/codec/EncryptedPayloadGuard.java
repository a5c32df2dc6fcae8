package cp.worker.codec;

import io.temporal.api.common.v1.Payload;
import io.temporal.payload.codec.PayloadCodec;
import java.util.List;

/**
 * The codec of a plane without {@code CP_PAYLOAD_KEY}: it encodes nothing, and refuses to pass
 * an encrypted payload on, with a message that names the key id it needs. Without it, such a
 * payload would reach the JSON converter and fail as "unknown encoding binary/encrypted".
 */
public final class EncryptedPayloadGuard implements PayloadCodec {
  @Override
  public List<Payload> encode(List<Payload> payloads) {
    return payloads;
  }

  @Override
  public List<Payload> decode(List<Payload> payloads) {
    for (Payload p : payloads) {
      if (EncryptedPayloads.isEncrypted(p)) {
        throw new PayloadKeyMismatchException(EncryptedPayloads.keyId(p), null);
      }
    }
    return payloads;
  }
}
