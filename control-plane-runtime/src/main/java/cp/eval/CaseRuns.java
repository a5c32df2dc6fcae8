package cp.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import cp.contracts.PromptRenderer;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.ToolCallSummary;
import cp.model.TurnResult;
import cp.tools.ToolErrorCodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds a case's {@link CaseRun} from its turn's result and the eval ledger entries the result
 * names: the TOOL_CALL entries (tool, arguments, result, whether it was replayed or had no
 * recording; a call whose approval was denied or timed out did not run, and is listed apart) and the last EXCHANGE (whether its output was valid, the structured {@code result}).
 * Reading the ledger, not the worker's memory, makes a run resumed in another process report the
 * same.
 */
final class CaseRuns {
  private final Ledgers ledgers;

  CaseRuns(Ledgers ledgers) {
    this.ledgers = ledgers;
  }

  CaseRun of(String caseId, String sessionId, TurnResult t, long latencyMs) {
    List<RecordedToolCall> called = new ArrayList<>();
    List<String> replayed = new ArrayList<>();
    List<String> unrecorded = new ArrayList<>();
    List<String> notApproved = new ArrayList<>();
    for (ToolCallSummary s : t.toolCalls()) {
      Optional<LedgerEntry> e = s.entryId() == null ? Optional.empty() : ledgers.ho1().byId(s.entryId());
      String tool = e.map(x -> x.metaText("tool_id")).orElse(s.toolName());
      JsonNode args = e.map(x -> x.meta("arguments")).orElse(null);
      if (e.isPresent() && ToolErrorCodes.notApproved(e.get().metaText("error_code"))) {
        notApproved.add(tool + " " + (args == null ? "{}" : args.toString()) + " (" + e.get().metaText("error_code")
            + ")");
        continue;
      }
      String result = e.map(x -> x.metaText("result")).orElse(null);
      boolean error = !"ok".equals(e.map(x -> x.metaText("status")).orElse(s.status()));
      called.add(new RecordedToolCall(tool, args, result == null ? null : TextNode.valueOf(result), error));
      if (e.isPresent() && ToolReplay.ORIGIN.equals(e.get().metaText("origin"))) {
        if (ToolReplay.UNRECORDED.equals(e.get().metaText("error_code"))) {
          unrecorded.add(tool + " " + (args == null ? "{}" : args.toString()));
        } else if (!replayed.contains(tool)) {
          replayed.add(tool);
        }
      }
    }
    Optional<LedgerEntry> last = t.exchangeEntryIds().isEmpty() ? Optional.empty()
        : ledgers.hot().byId(t.exchangeEntryIds().get(t.exchangeEntryIds().size() - 1));
    boolean schemaValid = last.map(x -> x.meta("output_valid")).map(n -> n == null || n.isMissingNode()
        || n.isNull() || n.asBoolean()).orElse(false) && !"error".equals(t.outcome());
    JsonNode result = last.map(x -> x.metaText("response")).map(CaseRuns::structured).orElse(null);
    var cost = t.costSummary();
    return new CaseRun(caseId, sessionId, t.response(), result, t.outcome(), schemaValid, t.qualityGatePassed(),
        called, replayed, unrecorded, cost == null ? null : cost.cost(), cost == null ? 0 : cost.inputTokens(),
        cost == null ? 0 : cost.outputTokens(), latencyMs, null, null, notApproved);
  }

  /** A case whose turn could not run at all: the run's error, nothing else. */
  static CaseRun failed(String caseId, String sessionId, String error, long latencyMs) {
    return new CaseRun(caseId, sessionId, "", null, "error", false, false, List.of(), List.of(), List.of(), null, 0, 0,
        latencyMs, error, null);
  }

  /** The {@code result} a structured reply carries (an agent's output_schema), or null. */
  private static JsonNode structured(String response) {
    try {
      JsonNode n = PromptRenderer.parseModelJson(response);
      JsonNode r = n == null ? null : n.get("result");
      return r == null || r.isNull() ? null : r;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The same run with the judge's verdict. */
  static CaseRun withJudge(CaseRun r, JudgeVerdict v) {
    return new CaseRun(r.caseId(), r.sessionId(), r.reply(), r.result(), r.outcome(), r.schemaValid(), r.gatePassed(),
        r.toolsCalled(), r.replayedTools(), r.unrecordedToolCalls(), r.costUsd(), r.inputTokens(), r.outputTokens(),
        r.latencyMs(), r.error(), v, r.notApprovedToolCalls());
  }
}
