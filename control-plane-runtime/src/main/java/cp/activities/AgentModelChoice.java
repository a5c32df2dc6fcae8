package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentModel;
import cp.contracts.ContractBoundary;
import cp.contracts.PromptContract;
import cp.model.ContractIds;
import cp.model.Json;
import java.util.Optional;

/**
 * What one call of an agent is sent with, when the agent names its own model (issue 22): a
 * contract that names a provider or model keeps it; otherwise the agent's provider route and
 * model, else the worker's. The agent's {@code max_tokens} lowers the contract's bound (never
 * raises it). An agent's {@code output_schema} is structured output of the synthesize step: the
 * reply's JSON must carry a {@code result} that satisfies it, which the model is told in the
 * system prompt and the gateway checks like the contract's own schema.
 */
final class AgentModelChoice {
  /** The field of a synthesized reply that holds the structured result an output_schema describes. */
  static final String RESULT = cp.contracts.ContractLoader.RESULT;

  private AgentModelChoice() {}

  static String provider(ContractBoundary b, AgentModel m) {
    return b.provider() != null ? b.provider() : m.provider().orElse(null);
  }

  static String model(ContractBoundary b, AgentModel m, String workerModel) {
    if (b.model() != null) {
      return b.model();
    }
    return m.name().orElse(m.provider().isPresent() ? null : workerModel);
  }

  static int maxTokens(int bound, AgentModel m) {
    return m.maxTokens().map(t -> Math.min(t, bound)).orElse(bound);
  }

  /** The agent's output schema, when this contract is the one whose reply it shapes. */
  static Optional<JsonNode> resultSchema(PromptContract c, AgentModel m) {
    return ContractIds.SYNTHESIZE.equals(c.contractId()) ? m.outputSchema() : Optional.empty();
  }

  /** The contract's output schema, and the agent's for the {@code result} field when it has one. */
  static JsonNode outputSchema(PromptContract c, AgentModel m) {
    Optional<JsonNode> result = resultSchema(c, m);
    if (result.isEmpty() || c.outputSchema() == null) {
      return c.outputSchema();
    }
    ObjectNode both = Json.object();
    both.putArray("allOf").add(c.outputSchema()).add(withResult(result.get()));
    return both;
  }

  /** {@code {"type":"object","required":["result"],"properties":{"result": schema}}}. */
  static ObjectNode withResult(JsonNode schema) {
    ObjectNode o = Json.object().put("type", "object");
    o.putArray("required").add(RESULT);
    o.putObject("properties").set(RESULT, schema);
    return o;
  }

  /** The system prompt, told of the structured result the agent's output_schema asks for. */
  static String system(String system, PromptContract c, AgentModel m) {
    return resultSchema(c, m).map(s -> system + "\n\n## Structured output\n\nBesides response_text, your JSON reply"
        + " must have a field \"" + RESULT + "\" whose value satisfies this JSON Schema:\n" + Json.canonical(s) + "\n")
        .orElse(system);
  }
}
