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
}
