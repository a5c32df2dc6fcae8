package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * Finds prompt contracts by id and checks work-order input and model output against them.
 *
 * <p>The contracts themselves were validated when the {@link Catalog} loaded; this class only
 * looks them up and validates instances, reusing the catalog's compiled schemas.
 */
public final class ContractLoader {
  private final Catalog catalog;
  private final SchemaValidator validator;

  public ContractLoader(Catalog catalog) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.validator = catalog.schemaValidator();
  }

  /**
   * The contract with this id.
   *
   * @throws ContractNotFoundException naming the id and listing the known ones
   */
  public PromptContract load(String contractId) {
    return catalog.contract(contractId);
  }

  /**
   * Every violation of the contract's input schema by {@code inputContext}; empty when valid.
   * The schema is passed uncopied: the validator only reads it and copies it before compiling.
   */
  public List<String> validateInput(PromptContract contract, JsonNode inputContext) {
    return validator.validate(contract.inputSchemaTree(), inputContext);
  }

  /** Every violation of the contract's output schema by {@code output}; empty when valid (schema uncopied). */
  public List<String> validateOutput(PromptContract contract, JsonNode output) {
    return validator.validate(contract.outputSchemaTree(), output);
  }

  /**
   * As {@link #validateOutput(PromptContract, JsonNode)}, and for the synthesize contract also the
   * {@code result} the agent's {@code output_schema} asks for (issue 22: structured output): a
   * reply without it, or with one that breaks the schema, is an invalid output the quality gate
   * sends back with the reasons.
   */
  public List<String> validateOutput(PromptContract contract, String agentClass, JsonNode output) {
    List<String> problems = new java.util.ArrayList<>(validateOutput(contract, output));
    if (!cp.model.ContractIds.SYNTHESIZE.equals(contract.contractId())) {
      return problems;
    }
    catalog.model(agentClass).outputSchema().ifPresent(schema -> {
      JsonNode result = output == null ? null : output.get(RESULT);
      if (result == null) {
        problems.add("$.result: is required by agent " + agentClass + "'s output_schema");
      } else {
        validator.validate(schema, result).forEach(v -> problems.add("result: " + v));
      }
    });
    return problems;
  }

  /** The field of a synthesized reply that carries an agent's structured result. */
  public static final String RESULT = "result";
}
