package cp.activities;

import cp.contracts.RenderedPrompt;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ContentBlock;
import cp.model.EntryRef;
import cp.model.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a work order's conversation from the ledger: the rendered prompt from its
 * WO_EXECUTING entry, each earlier round's answer from its EXCHANGE record and each tool result
 * from its TOOL_CALL entry. The workflow passes only the entry ids, so its history stays small
 * however long the tool loop runs.
 */
final class Transcript {
  private Transcript() {}

  /** The rendered prompt its WO_EXECUTING entry {@code promptRef} recorded (a missing part reads as ""). */
  static RenderedPrompt prompt(LedgerStream ho1, String promptRef) {
    LedgerEntry executing = ho1.byId(promptRef)
        .orElseThrow(() -> new IllegalStateException("prompt entry " + promptRef + " is not in " + ho1.location()));
    return new RenderedPrompt(executing.metaTextAt("/prompt/system"), executing.metaTextAt("/prompt/user"));
  }

  /** The conversation: the prompt's first user message, then each round's answer and tool results. */
  static List<Message> messages(Ledgers ledgers, Message first, List<EntryRef> refs) {
    List<Message> out = new ArrayList<>();
    out.add(first);
    List<ContentBlock> pendingResults = new ArrayList<>();
    for (EntryRef ref : refs) {
      if ("hot".equals(ref.tier())) {
        flush(out, pendingResults);
        LedgerEntry ex = ledgers.hot().byId(ref.entryId())
            .orElseThrow(() -> new IllegalStateException("EXCHANGE " + ref.entryId() + " is not in the HOT ledger"));
        out.add(new Message(Message.ASSISTANT, assistantBlocks(ex)));
      } else {
        LedgerEntry call = ledgers.ho1().byId(ref.entryId())
            .orElseThrow(() -> new IllegalStateException("TOOL_CALL " + ref.entryId() + " is not in the HO1 ledger"));
        pendingResults.add(ContentBlock.toolResult(call.metaText("tool_use_id"), call.metaText("result"),
            !"ok".equals(call.metaText("status"))));
      }
    }
    flush(out, pendingResults);
    return out;
  }

  static List<ContentBlock> assistantBlocks(LedgerEntry exchange) {
    return ExchangeRecord.of(exchange).responseBlocks();
  }

  private static void flush(List<Message> out, List<ContentBlock> results) {
    if (!results.isEmpty()) {
      out.add(new Message(Message.USER, List.copyOf(results)));
      results.clear();
    }
  }
}
