package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * What a user gets back for a turn, always: the response and how it was produced.
 *
 * @param outcome one of {@link TurnOutcome}
 * @param errorCode why the turn did not succeed (e.g. budget_exhausted, gateway_error), or null
 * @param traceHash SHA-256 over the chain's HO1m entries, as stored on WO_CHAIN_COMPLETE
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TurnResult(
    String response,
    String outcome,
    String sessionId,
    int turn,
    boolean qualityGatePassed,
    List<WoSummary> woChainSummary,
    CostSummary costSummary,
    List<ToolCallSummary> toolCalls,
    List<String> exchangeEntryIds,
    String traceHash,
    String errorCode) {

  public TurnResult {
    woChainSummary = woChainSummary == null ? List.of() : List.copyOf(woChainSummary);
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    exchangeEntryIds = exchangeEntryIds == null ? List.of() : List.copyOf(exchangeEntryIds);
  }

  public TurnResult withCost(CostSummary c) {
    return new TurnResult(response, outcome, sessionId, turn, qualityGatePassed, woChainSummary, c, toolCalls,
        exchangeEntryIds, traceHash, errorCode);
  }
}
