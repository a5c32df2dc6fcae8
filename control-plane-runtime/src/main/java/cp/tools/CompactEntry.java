package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.util.Map;
import java.util.Set;

/**
 * A ledger entry as one short JSON line for a model to read: id, time, type, decision, reason
 * and metadata, with the bulky fields (prompts, assembled context, tool results, responses)
 * shortened. The hash chain fields are left out; {@code gate_check} is where chains are judged.
 */
final class CompactEntry {
  /** Metadata fields that hold whole prompts, contexts or outputs; shown only as a prefix. */
  static final Set<String> LARGE_FIELDS = Set.of("prompt", "context", "result", "response", "response_blocks",
      "arguments", "output_result", "input", "messages");
  /** Characters kept of a large field: enough to recognise it, not to re-read it. */
  static final int LARGE_FIELD_CHARS = 160;
  /** Characters kept of any other text field or nested value. */
  static final int OTHER_FIELD_CHARS = 300;

  private CompactEntry() {}

  /** The compact JSON text of one entry, on one line. */
  static String line(LedgerEntry e) {
    ObjectNode out = Json.object()
        .put("entry_id", e.entryId())
        .put("timestamp", e.timestamp())
        .put("event_type", e.eventType())
        .put("decision", e.decision())
        .put("reason", BoundedText.cut(e.reason(), OTHER_FIELD_CHARS));
    if (!e.submissionId().isEmpty()) {
      out.put("submission_id", e.submissionId());
    }
    out.set("metadata", metadata(e.metadata()));
    return Json.write(out);
  }

  private static ObjectNode metadata(ObjectNode meta) {
    ObjectNode out = Json.object();
    for (Map.Entry<String, JsonNode> f : meta.properties()) {
      JsonNode v = f.getValue();
      int limit = LARGE_FIELDS.contains(f.getKey()) ? LARGE_FIELD_CHARS : OTHER_FIELD_CHARS;
      if (v.isTextual()) {
        out.put(f.getKey(), BoundedText.cut(v.asText(), limit));
      } else if (v.isContainerNode()) {
        String text = Json.write(v);
        if (text.length() > limit) {
          out.put(f.getKey(), BoundedText.cut(text, limit));
        } else {
          out.set(f.getKey(), v);
        }
      } else {
        out.set(f.getKey(), v);
      }
    }
    return out;
  }
}
