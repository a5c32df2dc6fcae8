package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.FileSystems;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules a JSON schema cannot express: embedded schemas that must themselves be valid,
 * template variables, glob syntax, budgets that must nest, unique names within a file.
 */
final class CatalogChecks {
  private final SchemaValidator validator;
  private final Problems problems;
  private final CatalogRequirements requirements;

  CatalogChecks(SchemaValidator validator, Problems problems, CatalogRequirements requirements) {
    this.validator = validator;
    this.problems = problems;
    this.requirements = requirements;
  }

  void contract(Loaded<PromptContract> loaded) {
    PromptContract c = loaded.value();
    String file = loaded.file().name();
    problems.addAll(file, "input_schema", validator.schemaProblems(c.inputSchema()));
    problems.addAll(file, "output_schema", validator.schemaProblems(c.outputSchema()));
    String inputType = c.inputSchema().path("type").asText("");
    if (!"object".equals(inputType)) {
      problems.add(file, "input_schema.type", "must be \"object\": a work order's input_context is a JSON object");
    }
    String outputType = c.outputSchema().path("type").asText("");
    if (c.structuredOutput() && !"object".equals(outputType)) {
      problems.add(file, "output_schema.type", "must be \"object\" because boundary.structured_output is true "
          + "(the model answers with a JSON object)");
    }
    if (!c.structuredOutput() && !"string".equals(outputType)) {
      problems.add(file, "output_schema.type", "must be \"string\" because boundary.structured_output is false "
          + "(the model answers in plain text)");
    }
  }

  void promptPack(Loaded<PromptPack> loaded) {
    PromptPack pack = loaded.value();
    String file = loaded.file().name();
    Set<String> used = new LinkedHashSet<>();
    templateVariables(file, "system", pack.system(), pack, used);
    templateVariables(file, "user", pack.user(), pack, used);
    List<String> declared = pack.variables();
    for (int i = 0; i < declared.size(); i++) {
      String name = declared.get(i);
      if (PromptRenderer.BUILT_INS.contains(name)) {
        problems.add(file, "variables[" + i + "]", "'" + name + "' is built in; remove it from variables");
      } else if (!used.contains(name)) {
        problems.add(file, "variables[" + i + "]", "'" + name + "' is declared but neither template uses it");
      }
    }
  }

  private void templateVariables(String file, String field, String template, PromptPack pack, Set<String> used) {
    Set<String> names;
    try {
      names = PromptTemplate.placeholders(template);
    } catch (IllegalArgumentException e) {
      problems.add(file, field, e.getMessage());
      return;
    }
    for (String name : names) {
      used.add(name);
      if (!PromptRenderer.BUILT_INS.contains(name) && !pack.variables().contains(name)) {
        problems.add(file, field, "{{" + name + "}} is not declared in variables (declared: " + pack.variables()
            + "; built in: " + new TreeSet<>(PromptRenderer.BUILT_INS) + ")");
      }
    }
  }

  void agent(Loaded<AgentConfig> loaded) {
    AgentConfig a = loaded.value();
    String file = loaded.file().name();
    Map<String, Integer> firstIndex = new HashMap<>();
    for (int i = 0; i < a.tools().size(); i++) {
      ToolSpec tool = a.tools().get(i);
      Integer earlier = firstIndex.putIfAbsent(tool.toolId(), i);
      if (earlier != null) {
        problems.add(file, "tools[" + i + "].tool_id", "duplicate tool '" + tool.toolId() + "' (also tools[" + earlier + "])");
      }
      List<String> known = requirements.toolIds();
      if (!known.isEmpty() && !requirements.tools().contains(tool.toolId())) {
        problems.add(file, "tools[" + i + "].tool_id", "unknown tool '" + tool.toolId() + "' (known: "
            + String.join(", ", known) + ")");
      }
      problems.addAll(file, "tools[" + i + "].parameters", validator.schemaProblems(tool.parameters()));
      long turnDeadline = a.budget().turnTimeoutSeconds();
      if (tool.approvalTimeoutSeconds() != null || ToolSpec.REQUIRED.equals(tool.approval())) {
        long wait = tool.effectiveApprovalTimeoutSeconds();
        if (turnDeadline > 0 && wait >= turnDeadline) {
          problems.add(file, "tools[" + i + "].approval_timeout_seconds", wait + " s is not shorter than"
              + " budget.turn_timeout_seconds " + turnDeadline + " s: the turn's deadline would cancel the turn"
              + " before the approval could time out; lower it or raise budget.turn_timeout_seconds");
        }
      }
    }
    globs(file, "permissions.read", a.permissions().read());
    globs(file, "permissions.write", a.permissions().write());
    globs(file, "permissions.forbidden", a.permissions().forbidden());
    AgentBudget b = a.budget();
    if (b.woTokenBudget() > b.sessionTokenLimit()) {
      problems.add(file, "budget.wo_token_budget", b.woTokenBudget() + " exceeds budget.session_token_limit "
          + b.sessionTokenLimit() + ": a work order cannot spend more than its session");
    }
    if (b.idleTimeoutSeconds() > b.timeoutSeconds()) {
      problems.add(file, "budget.idle_timeout_seconds", b.idleTimeoutSeconds() + " exceeds budget.timeout_seconds "
          + b.timeoutSeconds() + ": the session would always end before it could go idle");
    }
  }

  private void globs(String file, String field, List<String> globs) {
    for (int i = 0; i < globs.size(); i++) {
      try {
        FileSystems.getDefault().getPathMatcher("glob:" + globs.get(i));
      } catch (RuntimeException e) {
        problems.add(file, field + "[" + i + "]", "invalid glob '" + globs.get(i) + "': " + firstLine(e.getMessage()));
      }
    }
  }

  void attentionTemplate(Loaded<AttentionTemplate> loaded) {
    AttentionTemplate t = loaded.value();
    String file = loaded.file().name();
    Map<String, Integer> firstIndex = new HashMap<>();
    Set<String> selected = new LinkedHashSet<>();
    List<String> selectors = new ArrayList<>();
    int queries = 0;
    for (int i = 0; i < t.pipeline().size(); i++) {
      AttentionStage s = t.pipeline().get(i);
      Integer earlier = firstIndex.putIfAbsent(s.stage(), i);
      if (earlier != null) {
        problems.add(file, "pipeline[" + i + "].stage", "duplicate stage name '" + s.stage() + "' (also pipeline[" + earlier + "])");
      }
      if (s.type() == StageType.TIER_SELECT && s.config().tiers() != null) {
        selected.addAll(s.config().tiers());
        selectors.add(s.stage());
      }
    }
    for (int i = 0; i < t.pipeline().size(); i++) {
      AttentionStage s = t.pipeline().get(i);
      String at = "pipeline[" + i + "].config";
      if (s.type() == StageType.LEDGER_QUERY) {
        queries++;
        if (!selectors.isEmpty() && s.config().tier() != null && !selected.contains(s.config().tier())) {
          problems.add(file, at + ".tier", "'" + s.config().tier() + "' is not among the tiers selected by "
              + String.join(", ", selectors) + " " + selected);
        }
      }
      if (s.type() == StageType.STRUCTURING && s.config().maxTokens() != null
          && s.config().maxTokens() > t.budget().maxContextTokens()) {
        problems.add(file, at + ".max_tokens", s.config().maxTokens() + " exceeds budget.max_context_tokens "
            + t.budget().maxContextTokens());
      }
    }
    if (queries > t.budget().maxQueries()) {
      problems.add(file, "budget.max_queries", "the pipeline has " + queries + " ledger_query stages, more than max_queries "
          + t.budget().maxQueries());
    }
  }

  /**
   * Every contract the requirements name is loaded. A contract whose file exists but is invalid
   * ({@code seen}) is already reported at its file, so it is not reported again here.
   */
  void requiredContracts(Set<String> loaded, Set<String> seen) {
    List<String> missing = requirements.contractIds().stream().filter(id -> !seen.contains(id)).toList();
    for (String id : missing) {
      problems.add(ArtifactKind.CONTRACT.directory() + "/", "contract_id", "no contract " + id + ", which "
          + requirements.contractsNeededBy() + " plans work orders under (required: "
          + String.join(", ", requirements.contractIds()) + "; found: " + String.join(", ", new TreeSet<>(loaded)) + ")");
    }
  }

  /** A structured contract's pack must carry the input block; declared variables must be input fields. */
  void contractUsesPack(PromptContract c, Loaded<PromptPack> pack) {
    String file = pack.file().name();
    if (c.structuredOutput() && !PromptRenderer.hasInputBlock(pack.value().user())) {
      problems.add(file, "user", "contract " + c.contractId() + " has structured output, so the user template must "
          + "carry the input as " + PromptRenderer.INPUT_OPEN + "\\n{{" + PromptRenderer.INPUT_JSON + "}}\\n"
          + PromptRenderer.INPUT_CLOSE + " (the offline provider reads it there)");
    }
    JsonNode properties = c.inputSchema().get("properties");
    if (properties == null || !properties.isObject()) {
      return;
    }
    List<String> fields = new ArrayList<>();
    properties.fieldNames().forEachRemaining(fields::add);
    List<String> declared = pack.value().variables();
    for (int i = 0; i < declared.size(); i++) {
      String name = declared.get(i);
      if (!PromptRenderer.BUILT_INS.contains(name) && !fields.contains(name)) {
        problems.add(file, "variables[" + i + "]", "'" + name + "' is not a property of the input_schema of contract "
            + c.contractId() + " (properties: " + String.join(", ", fields) + "), so it would always render empty");
      }
    }
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    int nl = text.indexOf('\n');
    return nl < 0 ? text : text.substring(0, nl);
  }
}
