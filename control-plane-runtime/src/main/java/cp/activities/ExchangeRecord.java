package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.PromptRenderer;
import cp.ledger.LedgerEntry;
import cp.model.ContentBlock;
import cp.model.ContractIds;
import cp.model.EventType;
import cp.model.Json;
import cp.model.WoCost;
import cp.model.WorkOrderIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One EXCHANGE record of the HOT ledger (one governed LLM round trip) read as what it means: the
 * one reader of EXCHANGE records that the transcript (a round's conversation rebuilt for the next
 * round), attention (the session's earlier turns) and the client's session history ({@code cpctl
 * show}) share, whichever store the ledger is in. Immutable; safe to share between threads.
 */
public final class ExchangeRecord {
  /** The event type. */
  public static final String EVENT_TYPE = EventType.EXCHANGE.wire();
  /** Where the prompt's first user message text is in the record's metadata. */
  static final String FIRST_USER_TEXT = "/prompt/messages/0/content/0/text";

  private final LedgerEntry entry;

  private ExchangeRecord(LedgerEntry entry) {
    this.entry = entry;
  }

  /** {@code entry} read as an EXCHANGE record. */
  public static ExchangeRecord of(LedgerEntry entry) {
    if (!EVENT_TYPE.equals(entry.eventType())) {
      throw new IllegalArgumentException("entry " + entry.entryId() + " is a " + entry.eventType() + ", not an "
          + EVENT_TYPE);
    }
    return new ExchangeRecord(entry);
  }

  public LedgerEntry entry() {
    return entry;
  }

  /** The turn of its work order (-1 when it has none). */
  public int turn() {
    return WorkOrderIds.turnOf(entry.workOrderId());
  }

  public String contractId() {
    return entry.metaText("contract_id");
  }

  public boolean success() {
    return "success".equals(entry.metaText("outcome"));
  }

  public boolean synthesize() {
    return ContractIds.SYNTHESIZE.equals(contractId());
  }

  public boolean degraded() {
    return ContractIds.DEGRADED.equals(contractId());
  }

  public boolean classify() {
    return ContractIds.CLASSIFY.equals(contractId());
  }

  /** A successful reply to the user (synthesize or degraded) that is not a tool_use round. */
  public boolean finalAnswer() {
    return (synthesize() || degraded()) && success() && !"tool_use".equals(entry.metaText("finish_reason"));
  }

  /** The user's words: the {@code user_input} of the prompt's {@code <input>} JSON, else its first user text. */
  public String userInput() {
    String text = entry.metaTextAt(FIRST_USER_TEXT);
    Optional<String> json = PromptRenderer.findInputJson(text);
    if (json.isEmpty()) {
      return text;
    }
    try {
      return Json.parse(json.get()).path("user_input").asText(text);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  /** The reply's words: synthesize's {@code response_text}, else the response as sent; null without one. */
  public String answerText() {
    String response = entry.metaText("response");
    if (response == null || !synthesize()) {
      return response;
    }
    try {
      JsonNode n = PromptRenderer.parseModelJson(response);
      return n.has("response_text") ? n.get("response_text").asText() : response;
    } catch (IllegalArgumentException e) {
      return response;
    }
  }

  /** The reply as content blocks (text and tool_use), for the next round's conversation. */
  public List<ContentBlock> responseBlocks() {
    JsonNode blocks = entry.meta("response_blocks");
    List<ContentBlock> out = new ArrayList<>();
    if (blocks != null && blocks.isArray()) {
      for (JsonNode b : blocks) {
        out.add(Json.convert(b, ContentBlock.class));
      }
    } else {
      out.add(ContentBlock.text(entry.metaText("response") == null ? "" : entry.metaText("response")));
    }
    return out;
  }

  public long inputTokens() {
    return entry.meta("input_tokens") == null ? 0 : entry.meta("input_tokens").asLong();
  }

  public long outputTokens() {
    return entry.meta("output_tokens") == null ? 0 : entry.meta("output_tokens").asLong();
  }

  public double costUsd() {
    return entry.meta("cost") == null ? 0.0 : entry.meta("cost").asDouble();
  }

  /** Whether the call's model had no price: its cost is unknown, not the 0 that {@link #costUsd} reads. */
  public boolean costUnknown() {
    return entry.meta("cost_unknown") != null && entry.meta("cost_unknown").asBoolean();
  }

  /** What the round trip cost, successful or not. */
  public WoCost cost() {
    return WoCost.llmCall(inputTokens(), outputTokens(), costUsd());
  }
}
