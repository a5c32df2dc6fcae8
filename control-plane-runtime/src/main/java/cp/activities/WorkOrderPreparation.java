package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.ContractLoader;
import cp.contracts.PromptContract;
import cp.contracts.PromptRenderer;
import cp.contracts.RenderedPrompt;
import cp.ledger.LedgerEntry;
import cp.ledger.Ledgers;
import cp.model.EventType;
import cp.model.PreparedWorkOrder;
import cp.model.WoErrorCode;
import cp.model.WorkOrder;
import java.util.List;
import java.util.Optional;

/**
 * HO1's prepare step: loads the contract, validates the work order's input against it, renders
 * the prompt pack and writes WO_EXECUTING with the rendered prompt (or with the reason the work
 * order cannot run). Idempotent per workflow run and work order.
 */
final class WorkOrderPreparation {
  /** What prepare produced: the result HO2 sees and, when it succeeded, the prompt itself. */
  record Prepared(PreparedWorkOrder result, RenderedPrompt prompt) {}

  private final Catalog catalog;
  private final ContractLoader contracts;
  private final PromptRenderer renderer = new PromptRenderer();
  private final Ledgers ledgers;

  WorkOrderPreparation(Catalog catalog, ContractLoader contracts, Ledgers ledgers) {
    this.catalog = catalog;
    this.contracts = contracts;
    this.ledgers = ledgers;
  }

  Prepared prepare(WorkOrder wo, ActivityIdentity id) {
    String contractId = wo.constraints().promptContractId();
    ObjectNode meta = Ho1ActivitiesImpl.ho1Meta(wo.woId(), wo.sessionId()).put("wo_type", wo.woType().wireName())
        .put("contract_id", contractId);
    Optional<PromptContract> contract = catalog.findContract(contractId);
    String errorCode = null;
    String errorMessage = null;
    RenderedPrompt prompt = null;
    if (contract.isEmpty()) {
      errorCode = WoErrorCode.CONTRACT_NOT_FOUND;
      errorMessage = "contract " + contractId + " not found in contracts/ (known: "
          + String.join(", ", catalog.contracts().stream().map(PromptContract::contractId).sorted().toList()) + ")";
    } else {
      JsonNode input = expandInput(wo);
      List<String> problems = contracts.validateInput(contract.get(), input);
      if (!problems.isEmpty()) {
        errorCode = WoErrorCode.INPUT_SCHEMA_INVALID;
        errorMessage = "input_context does not match " + contractId + ": " + String.join("; ", problems);
      } else {
        AgentConfig agent = catalog.agent(wo.agentClass());
        prompt = renderer.render(catalog.promptPack(contract.get().promptPackId()), input, agent);
        meta.put("prompt_pack_id", contract.get().promptPackId());
        meta.putObject("prompt").put("system", prompt.system()).put("user", prompt.user());
      }
    }
    if (errorCode != null) {
      meta.put("error_code", errorCode).put("error_message", errorMessage);
    }
    String entryId = ledgers.ho1().write(LedgerEntry.builder(EventType.WO_EXECUTING.wire()).submissionId(wo.woId())
        .decision("EXECUTING").reason("dispatched -> executing under " + contractId).metadata(meta)
        .idempotencyKey(id.runKey(EventType.WO_EXECUTING.wire() + "/" + wo.woId())).build());
    return new Prepared(new PreparedWorkOrder(errorCode == null ? entryId : null, contractId, errorCode, errorMessage),
        prompt);
  }

  /** Resolves {@code assembled_context.context_ref} into the context text HO2's attention stored. */
  private JsonNode expandInput(WorkOrder wo) {
    JsonNode input = wo.inputContext();
    JsonNode assembled = input.get("assembled_context");
    if (assembled == null || !assembled.has("context_ref") || assembled.has("text")) {
      return input;
    }
    String ref = assembled.get("context_ref").asText();
    String text = ledgers.ho2(wo.agentClass()).byId(ref).map(e -> e.metaText("context")).orElse("");
    ObjectNode copy = input.deepCopy();
    ((ObjectNode) copy.get("assembled_context")).put("text", text == null ? "" : text);
    return copy;
  }
}
