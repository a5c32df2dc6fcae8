package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * The interface of one kind of LLM call: prompt pack, boundary, and input/output JSON schemas.
 *
 * <p>HO1 executes each work order under exactly one contract, named by the work order's
 * {@code constraints.prompt_contract_id}. The schemas are held as trees and handed out as
 * copies, so a caller cannot change a contract that other work orders share.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromptContract(
    String contractId,
    String version,
    String promptPackId,
    String tier,
    String description,
    ContractBoundary boundary,
    JsonNode inputSchema,
    JsonNode outputSchema) {

  public PromptContract {
    Objects.requireNonNull(contractId, "contract_id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(promptPackId, "prompt_pack_id");
    Objects.requireNonNull(boundary, "boundary");
    tier = tier == null ? "ho1" : tier;
    description = description == null ? "" : description;
    inputSchema = Objects.requireNonNull(inputSchema, "input_schema").deepCopy();
    outputSchema = Objects.requireNonNull(outputSchema, "output_schema").deepCopy();
  }

  @Override
  public JsonNode inputSchema() {
    return inputSchema.deepCopy();
  }

  @Override
  public JsonNode outputSchema() {
    return outputSchema.deepCopy();
  }

  /** The stored input schema itself, not a copy: for readers in this package that never change it. */
  JsonNode inputSchemaTree() {
    return inputSchema;
  }

  /** The stored output schema itself, not a copy: for readers in this package that never change it. */
  JsonNode outputSchemaTree() {
    return outputSchema;
  }

  /** True when the model must answer with JSON (see {@link ContractBoundary#structuredOutput()}). */
  public boolean structuredOutput() {
    return boundary.structuredOutput();
  }
}
