/**
 * Payload encryption: an AES-256-GCM {@link io.temporal.payload.codec.PayloadCodec} keyed by
 * {@code CP_PAYLOAD_KEY}, and the remote codec server the Temporal Web UI and CLI use to show
 * encrypted payloads. Off unless the key is set; with it, prompts, answers and failure messages
 * are ciphertext in Temporal's history. Search attributes bypass codecs, which is why they never
 * hold user text.
 */
package cp.worker.codec;
