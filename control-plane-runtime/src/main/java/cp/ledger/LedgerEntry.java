package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.Objects;

/**
 * One line of a ledger.
 *
 * <p>The fields are those of the seeds' LedgerEntry ({@code entry_id}, {@code timestamp},
 * {@code event_type}, {@code submission_id}, {@code decision}, {@code reason},
 * {@code metadata}) plus the chain ({@code prev_hash}, {@code hash}, and on a keyed chain
 * {@code chain} and {@code key_id}, see {@link ChainKey}) and an optional {@code idempotency_key}. An entry built by a caller has no id, timestamp or hashes; the
 * ledger fills them in when it writes. Metadata is deep-copied on the way in and out, so an
 * entry cannot change after it is built.
 */
public final class LedgerEntry {
  private final String entryId;
  private final String timestamp;
  private final String eventType;
  private final String submissionId;
  private final String decision;
  private final String reason;
  private final ObjectNode metadata;
  private final String idempotencyKey;
  private final String prevHash;
  private final String hash;
  private final String chain;
  private final String keyId;

  private LedgerEntry(Builder b) {
    // An entry built by a writer holds only text every store can hold (StoredText); one read back from a
    // store keeps its text exactly as stored, so its hash still checks.
    boolean clean = !b.asStored;
    this.entryId = text(b.entryId, clean);
    this.timestamp = text(b.timestamp, clean);
    this.eventType = text(Objects.requireNonNull(b.eventType, "event_type"), clean);
    if (eventType.isBlank()) {
      throw new IllegalArgumentException("event_type must not be blank");
    }
    this.submissionId = b.submissionId == null ? "" : text(b.submissionId, clean);
    this.decision = b.decision == null ? "" : text(b.decision, clean);
    this.reason = b.reason == null ? "" : text(b.reason, clean);
    this.metadata = b.metadata == null ? Json.object()
        : clean ? StoredText.cleanCopy(b.metadata) : b.metadata.deepCopy();
    this.idempotencyKey = text(b.idempotencyKey, clean);
    this.prevHash = b.prevHash;
    this.hash = b.hash;
    this.chain = b.chain;
    this.keyId = b.keyId;
  }

  private static String text(String s, boolean clean) {
    return clean ? StoredText.clean(s) : s;
  }

  public static Builder builder(String eventType) {
    return new Builder().eventType(eventType);
  }

  public Builder toBuilder() {
    return new Builder().entryId(entryId).timestamp(timestamp).eventType(eventType)
        .submissionId(submissionId).decision(decision).reason(reason).metadata(metadata)
        .idempotencyKey(idempotencyKey).prevHash(prevHash).hash(hash).chain(chain).keyId(keyId);
  }

  public String entryId() { return entryId; }
  public String timestamp() { return timestamp; }
  public String eventType() { return eventType; }
  public String submissionId() { return submissionId; }
  public String decision() { return decision; }
  public String reason() { return reason; }
  public String idempotencyKey() { return idempotencyKey; }
  public String prevHash() { return prevHash; }
  public String hash() { return hash; }
  /** {@code hmac-sha256} when the hash is keyed ({@link ChainKey}), null for a plain SHA-256 chain. */
  public String chain() { return chain; }
  /** The id of the key a keyed entry was written with, or null. */
  public String keyId() { return keyId; }

  /** A copy of the metadata. */
  public ObjectNode metadata() {
    return metadata.deepCopy();
  }

  /** A metadata field without copying the whole object; null when absent. */
  public JsonNode meta(String field) {
    JsonNode v = metadata.get(field);
    return v == null ? null : v.deepCopy();
  }

  public String metaText(String field) {
    return Json.text(metadata, field, null);
  }

  /**
   * The text at a JSON pointer into the metadata ({@code /prompt/messages/0/content/0/text}),
   * without copying anything on the way; empty when absent or not text.
   */
  public String metaTextAt(String pointer) {
    JsonNode v = metadata.at(pointer);
    return v.isTextual() ? v.asText() : "";
  }

  /** {@code metadata.session_id} ({@link LedgerKeys#SESSION_ID}), or null. */
  public String sessionId() {
    return metaText(LedgerKeys.SESSION_ID);
  }

  /** The work order ({@link LedgerKeys#WO_ID}, or the older EXCHANGE spelling), or null. */
  public String workOrderId() {
    return LedgerKeys.workOrderId(metadata);
  }

  /** {@code metadata.agent_class} ({@link LedgerKeys#AGENT_CLASS}), or null. */
  public String agentClass() {
    return metaText(LedgerKeys.AGENT_CLASS);
  }

  /** A number in the metadata ({@code input_tokens}, {@code cost}, ...), or 0 when absent or not a number. */
  public double metaNumber(String field) {
    JsonNode v = metadata.get(field);
    return v != null && v.isNumber() ? v.asDouble() : 0;
  }

  /** The JSON object written to disk (without {@code hash} when {@code withHash} is false), in {@link #toAppendJson}'s order. */
  public ObjectNode toJson(boolean withHash) {
    ObjectNode n = Json.object();
    putIfNotNull(n, "entry_id", entryId);
    putIfNotNull(n, "timestamp", timestamp);
    n.put("event_type", eventType);
    putIfNotNull(n, "idempotency_key", idempotencyKey);
    n.put("submission_id", submissionId);
    n.put("decision", decision);
    n.put("reason", reason);
    n.set("metadata", smallFirst(metadata.deepCopy()));
    putIfNotNull(n, "chain", chain);
    putIfNotNull(n, "key_id", keyId);
    putIfNotNull(n, "prev_hash", prevHash);
    if (withHash) {
      putIfNotNull(n, "hash", hash);
    }
    return n;
  }

  /**
   * The line a ledger appends for this entry, with the id, time and previous hash it assigned,
   * without the hash. The node shares this entry's metadata values instead of copying them: the
   * ledger only reads them (hashes and writes them) and then drops the node. The order of the
   * fields is for a torn write ({@link TornTail}): the id, type and idempotency key first, and
   * within the metadata every small value (numbers, booleans, short text) before the large ones (a
   * prompt, a response), so the first bytes of a line that tore still say what it recorded and what
   * it cost. The hash covers the canonical form (keys sorted), so the order changes no hash.
   */
  ObjectNode toAppendJson(String id, String at, String prev, ChainKey key) {
    ObjectNode n = Json.object();
    n.put("entry_id", id);
    n.put("timestamp", at);
    n.put("event_type", eventType);
    putIfNotNull(n, "idempotency_key", idempotencyKey);
    n.put("submission_id", submissionId);
    n.put("decision", decision);
    n.put("reason", reason);
    n.set("metadata", smallFirst(metadata));
    if (key != null) {
      n.put("chain", ChainKey.ALGORITHM);
      n.put("key_id", key.id());
    }
    n.put("prev_hash", prev);
    return n;
  }

  /** Text up to this many characters counts as small in a line's layout (an id, a model name, a short reason). */
  static final int SMALL_TEXT_CHARS = 200;

  /** {@code meta}'s fields with the small ones first (each group in its own order); the values are shared, not copied. */
  private static ObjectNode smallFirst(ObjectNode meta) {
    ObjectNode out = Json.object();
    meta.properties().forEach(e -> {
      if (small(e.getValue())) {
        out.set(e.getKey(), e.getValue());
      }
    });
    meta.properties().forEach(e -> {
      if (!small(e.getValue())) {
        out.set(e.getKey(), e.getValue());
      }
    });
    return out;
  }

  private static boolean small(JsonNode v) {
    return v.isNumber() || v.isBoolean() || v.isNull() || (v.isTextual() && v.textValue().length() <= SMALL_TEXT_CHARS);
  }

  private static void putIfNotNull(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }

  /** Reads an entry from its JSON form; unknown top-level fields are ignored. */
  public static LedgerEntry fromJson(JsonNode n) {
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("a ledger entry must be a JSON object");
    }
    JsonNode meta = n.get("metadata");
    if (meta != null && !meta.isNull() && !meta.isObject()) {
      throw new IllegalArgumentException("metadata must be a JSON object");
    }
    return new Builder().asStored()
        .entryId(Json.text(n, "entry_id", null))
        .timestamp(Json.text(n, "timestamp", null))
        .eventType(Json.text(n, "event_type", null))
        .submissionId(Json.text(n, "submission_id", ""))
        .decision(Json.text(n, "decision", ""))
        .reason(Json.text(n, "reason", ""))
        .metadata(meta != null && meta.isObject() ? (ObjectNode) meta : null)
        .idempotencyKey(Json.text(n, "idempotency_key", null))
        .prevHash(Json.text(n, "prev_hash", null))
        .hash(Json.text(n, "hash", null))
        .chain(Json.text(n, "chain", null))
        .keyId(Json.text(n, "key_id", null))
        .build();
  }

  @Override
  public String toString() {
    return Json.canonical(toJson(true));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LedgerEntry other && toJson(true).equals(other.toJson(true));
  }

  @Override
  public int hashCode() {
    return toJson(true).hashCode();
  }

  /** Mutable builder for entries. */
  public static final class Builder {
    private String entryId;
    private String timestamp;
    private String eventType;
    private String submissionId;
    private String decision;
    private String reason;
    private ObjectNode metadata;
    private String idempotencyKey;
    private String prevHash;
    private String hash;
    private String chain;
    private String keyId;
    /** Read back from a store: its text is kept exactly as stored (see {@link StoredText}). */
    private boolean asStored;

    Builder asStored() {
      asStored = true;
      return this;
    }

    public Builder entryId(String v) { entryId = v; return this; }
    public Builder timestamp(String v) { timestamp = v; return this; }
    public Builder eventType(String v) { eventType = v; return this; }
    public Builder submissionId(String v) { submissionId = v; return this; }
    public Builder decision(String v) { decision = v; return this; }
    public Builder reason(String v) { reason = v; return this; }
    public Builder metadata(ObjectNode v) { metadata = v; return this; }
    /** Entries sharing a key are written once; later writes return the first entry's id. */
    public Builder idempotencyKey(String v) { idempotencyKey = v; return this; }
    Builder prevHash(String v) { prevHash = v; return this; }
    Builder hash(String v) { hash = v; return this; }
    Builder chain(String v) { chain = v; return this; }
    Builder keyId(String v) { keyId = v; return this; }

    public LedgerEntry build() {
      return new LedgerEntry(this);
    }
  }
}
