package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * What a defined agent says about its model and its replies (issue 22), beyond what an agent
 * file holds.
 *
 * @param provider the gateway's id of the provider its calls go to ({@code openai@WEATHER} for an
 *     endpoint of its own), or empty for the worker's default provider
 * @param name the model its calls name, or empty for the provider's default
 * @param maxTokens the most output tokens one call may ask for (below the contract's own bound),
 *     or empty for the contract's
 * @param outputSchema the JSON Schema the {@code result} of its synthesized reply must satisfy
 *     (structured output), or empty
 */
public record AgentModel(Optional<String> provider, Optional<String> name, Optional<Integer> maxTokens,
    Optional<JsonNode> outputSchema) {
  public static final AgentModel WORKER_DEFAULT = new AgentModel(Optional.empty(), Optional.empty(), Optional.empty(),
      Optional.empty());

  public AgentModel {
    provider = provider == null ? Optional.empty() : provider;
    name = name == null ? Optional.empty() : name;
    maxTokens = maxTokens == null ? Optional.empty() : maxTokens;
    outputSchema = outputSchema == null ? Optional.empty() : outputSchema.map(JsonNode::deepCopy);
  }

  @Override
  public Optional<JsonNode> outputSchema() {
    return outputSchema.map(JsonNode::deepCopy);
  }
}
