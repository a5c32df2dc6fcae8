package cp.ledger;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a torn final line proves, recorded as an entry of its own. A line tears when the process
 * dies while writing it; the entry it was never acknowledged, so the work it records (an LLM call
 * that was paid for, a tool that ran) is done again by the retried activity. The fragment is kept in
 * a {@code .torn-*} file, and the entry this class builds from it goes where the line was: the same
 * event type, decision {@code TORN}, the metadata fields the fragment holds whole (a line puts its
 * small fields first, {@link LedgerEntry#toAppendJson}, so the tokens, cost and identity of an
 * EXCHANGE survive a tear in its prompt or response), {@code outcome}/{@code status} {@value #TORN},
 * and where the fragment is. Its idempotency key is the lost entry's with {@value #KEY_SUFFIX}, so the
 * retried call can find the attempt it repeats ({@link LedgerStream#tornAttempt}) and count it.
 *
 * <p>Thread-safety: stateless.
 */
public final class TornTail {
  /** The decision, outcome and status of a recovered entry. */
  public static final String TORN = "torn";
  /** Appended to the lost entry's idempotency key to make the recovered entry's. */
  public static final String KEY_SUFFIX = "#torn";
  /** The metadata field describing the tear. */
  public static final String FIELD = "torn";

  private TornTail() {}

  /** The idempotency key of the entry recovered from a torn write of the entry keyed {@code key}. */
  public static String keyFor(String key) {
    return key + KEY_SUFFIX;
  }

  /**
   * The entry recording what {@code fragment} (the bytes of a torn final line) proves, or empty
   * when it proves nothing (not even its event type survived).
   *
   * @param saved the file the fragment was saved to
   */
  static Optional<LedgerEntry> recover(byte[] fragment, Path saved) {
    ObjectNode top = Json.object();
    ObjectNode meta = Json.object();
    read(fragment, top, meta);
    String type = top.path("event_type").asText("");
    if (type.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode torn = Json.object().put("file", saved.getFileName().toString()).put("bytes", fragment.length);
    copy(top, "entry_id", torn, "lost_entry_id");
    copy(top, "idempotency_key", torn, "lost_idempotency_key");
    copy(top, "decision", torn, "lost_decision");
    for (String f : new String[] {LedgerKeys.OUTCOME, "status"}) {
      if (meta.has(f)) {
        torn.set("lost_" + f, meta.get(f));
        meta.put(f, TORN);
      }
    }
    if (!meta.has(LedgerKeys.OUTCOME)) {
      meta.put(LedgerKeys.OUTCOME, TORN);
    }
    meta.set(FIELD, torn);
    String key = top.path("idempotency_key").asText(null);
    return Optional.of(LedgerEntry.builder(type).submissionId(top.path("submission_id").asText(""))
        .decision(TORN.toUpperCase(java.util.Locale.ROOT))
        .reason("recovered from a torn write: the process stopped while writing this " + type + " entry ("
            + fragment.length + " bytes reached the disk, kept in " + saved.getFileName() + "); the work it records"
            + " was done, and a retry did it again")
        .metadata(meta).idempotencyKey(key == null ? null : keyFor(key)).build());
  }

  private static void copy(ObjectNode from, String field, ObjectNode to, String as) {
    if (from.hasNonNull(field)) {
      to.set(as, from.get(field));
    }
  }

  /**
   * Reads the fragment as far as it goes: top-level scalars into {@code top}, scalars of
   * {@code metadata} into {@code meta}. A value counts only once the token after it was read: a
   * number cut by the tear ({@code 12} of {@code 1234}) ends the fragment, and is dropped.
   */
  private static void read(byte[] fragment, ObjectNode top, ObjectNode meta) {
    Pending pending = new Pending();
    try (JsonParser p = Json.MAPPER.getFactory().createParser(fragment)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (next(p, pending) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if ("metadata".equals(name) && v == JsonToken.START_OBJECT) {
          while (next(p, pending) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken mv = p.nextToken();
            if (mv.isScalarValue()) {
              pending.hold(meta, field, p.readValueAsTree());
            } else {
              p.skipChildren();
            }
          }
        } else if (v.isScalarValue()) {
          pending.hold(top, name, p.readValueAsTree());
        } else {
          p.skipChildren();
        }
      }
      pending.commit();
    } catch (IOException | RuntimeException e) {
      // The fragment ends here: what was read whole before it is what it proves.
    }
  }

  /** The next token; the value read before it is whole now. */
  private static JsonToken next(JsonParser p, Pending pending) throws IOException {
    JsonToken t = p.nextToken();
    pending.commit();
    return t;
  }

  /** A value read but not yet known to be whole. */
  private static final class Pending {
    private ObjectNode into;
    private String field;
    private com.fasterxml.jackson.databind.JsonNode value;

    void hold(ObjectNode node, String name, com.fasterxml.jackson.core.TreeNode v) {
      commit();
      into = node;
      field = name;
      value = (com.fasterxml.jackson.databind.JsonNode) v;
    }

    void commit() {
      if (into != null) {
        into.set(field, value);
        into = null;
      }
    }
  }
}
