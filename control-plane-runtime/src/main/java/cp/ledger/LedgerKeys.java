package cp.ledger;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The metadata keys of ledger entries that more than one writer or reader uses, each defined once.
 * Writers put these names; readers go through {@link LedgerEntry}'s typed accessors
 * ({@link LedgerEntry#sessionId()}, {@link LedgerEntry#workOrderId()}, ...) or the static readers
 * here, which also read the spellings older entries used, so every entry ever written stays readable.
 *
 * <p>One thing, one spelling: the work order is {@link #WO_ID} in every entry written now. EXCHANGE
 * records used to say {@link #LEGACY_WORK_ORDER_ID} (the seeds' PROMPT_SENT name); readers accept
 * both, writers put only {@link #WO_ID}.
 *
 * <p>Thread-safety: constants and stateless readers.
 */
public final class LedgerKeys {
  /** The session ({@code SES-xxxxxxxx}); indexed by both stores. */
  public static final String SESSION_ID = "session_id";
  /** The work order ({@code WO-...}); indexed by both stores. */
  public static final String WO_ID = "wo_id";
  /** The work order as EXCHANGE records spelled it before issue 21: read, never written. */
  public static final String LEGACY_WORK_ORDER_ID = "work_order_id";
  /** The agent class ({@code ADMIN}, {@code RESIDENT}, ...). */
  public static final String AGENT_CLASS = "agent_class";
  /** The turn number within the session (1-based). */
  public static final String TURN = "turn";
  /** The tool a TOOL_CALL or an approval is about. */
  public static final String TOOL_ID = "tool_id";
  /** Tokens and cost of an LLM round trip (EXCHANGE). */
  public static final String INPUT_TOKENS = "input_tokens";
  public static final String OUTPUT_TOKENS = "output_tokens";
  public static final String COST = "cost";
  /** How a round trip or a call ended ({@code success}, {@code error}, {@code torn}, ...). */
  public static final String OUTCOME = "outcome";
  /** Temporal identity of the activity that wrote an entry. */
  public static final String WORKFLOW_ID = "workflow_id";
  public static final String RUN_ID = "run_id";
  public static final String ACTIVITY_ID = "activity_id";
  /** The other ledgers' heads a boundary entry records ({@link HeadCheckpoint}). */
  public static final String LEDGER_HEADS = HeadCheckpoint.FIELD;
  /** LEDGER_REPAIRED: the first line (entry) a repair moved aside or recorded as lost. */
  public static final String FIRST_BAD_LINE = "first_bad_line";
  /** LEDGER_REPAIRED: what was wrong. */
  public static final String PROBLEM = "problem";
  /** LEDGER_REPAIRED: where the moved lines or rows are kept (a file name, or the quarantine table and repair id). */
  public static final String QUARANTINE = "quarantine";
  /** LEDGER_REPAIRED of the JSONL store before issue 21: the quarantine file's name. Read, never written. */
  public static final String LEGACY_QUARANTINE_FILE = "quarantine_file";

  private LedgerKeys() {}

  /** The work order a metadata object names under either spelling, or null. */
  public static String workOrderId(JsonNode metadata) {
    String wo = text(metadata, WO_ID);
    return wo != null ? wo : text(metadata, LEGACY_WORK_ORDER_ID);
  }

  /** Where a LEDGER_REPAIRED entry's moved lines are kept, under either spelling, or null. */
  public static String quarantine(JsonNode metadata) {
    String q = text(metadata, QUARANTINE);
    return q != null ? q : text(metadata, LEGACY_QUARANTINE_FILE);
  }

  static String text(JsonNode metadata, String field) {
    JsonNode v = metadata == null ? null : metadata.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
