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
 * @param fallback issue 23: the models its calls go to, in order, when its own fails in a way another
 *     may not ({@code fallback} in its definition); null: the worker's chain ({@code CP_FALLBACK_MODELS})
 */
public record AgentModel(Optional<String> provider, Optional<String> name, Optional<Integer> maxTokens,
    Optional<JsonNode> outputSchema, java.util.List<cp.model.FallbackModel> fallback) {
  public static final AgentModel WORKER_DEFAULT = new AgentModel(Optional.empty(), Optional.empty(), Optional.empty(),
      Optional.empty(), null);

  /** A model without a fallback chain of its own. */
  public AgentModel(Optional<String> provider, Optional<String> name, Optional<Integer> maxTokens,
      Optional<JsonNode> outputSchema) {
    this(provider, name, maxTokens, outputSchema, java.util.List.of());
  }

  public AgentModel {
    provider = provider == null ? Optional.empty() : provider;
    name = name == null ? Optional.empty() : name;
    maxTokens = maxTokens == null ? Optional.empty() : maxTokens;
    outputSchema = outputSchema == null ? Optional.empty() : outputSchema.map(JsonNode::deepCopy);
    fallback = fallback == null ? null : java.util.List.copyOf(fallback);
  }

  @Override
  public Optional<JsonNode> outputSchema() {
    return outputSchema.map(JsonNode::deepCopy);
  }
}
