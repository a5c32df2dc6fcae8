package cp.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AddedAgent;
import cp.contracts.AgentBudget;
import cp.contracts.AgentConfig;
import cp.contracts.AttentionTemplate;
import cp.contracts.Catalog;
import cp.contracts.LedgerScope;
import cp.contracts.Permissions;
import cp.contracts.QualityGateConfig;
import cp.contracts.ResourceFile;
import cp.contracts.ToolSpec;
import cp.model.Json;
import cp.tools.registry.RegisteredTool;
import cp.tools.registry.ToolOrigin;
import cp.tools.registry.ToolRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a checked definition into the agent configuration the built-in agents have: its
 * instructions as the system prompt, a tool spec per granted tool (description and schema from the
 * registry, or from the shipped agent files for a built-in tool), its approval policy, budget,
 * permissions, and an attention template: one of the catalog's that applies to the class, else a
 * default one made for it ({@code ATT-<CLASS>-001}, RESIDENT's narrow context).
 */
public final class DefinitionConfigs {
  static final String DEFAULT_TEMPLATE = "/cp/agents/default_attention.json";

  private DefinitionConfigs() {}

  /** The definition as an agent to add to the catalog ({@link Catalog#withAgents}). */
  public static AddedAgent toAgent(CheckedDefinition d, ToolRegistry registry, Catalog catalog) {
    return toAgent(d, registry, catalog, cp.contracts.AgentModel.WORKER_DEFAULT);
  }

  /** As above, with the agent's resolved model ({@link AgentModels}). */
  public static AddedAgent toAgent(CheckedDefinition d, ToolRegistry registry, Catalog catalog,
      cp.contracts.AgentModel model) {
    AgentDefinition def = d.definition();
    String agentClass = def.agentClass();
    Optional<AttentionTemplate> own = catalog.attentionTemplates().stream()
        .filter(t -> t.appliesTo().agentClass().contains(agentClass)).findFirst();
    AttentionTemplate template = own.orElseGet(() -> defaultTemplate(agentClass));
    AgentConfig config = new AgentConfig(agentId(agentClass), agentClass, DefinitionDefaults.VERSION,
        DefinitionDefaults.FRAMEWORK_ID, DefinitionDefaults.TIER,
        def.description() == null ? "Agent class defined in " + d.file() : def.description(), d.instructions(),
        new AgentConfig.Attention(template.templateId()), tools(def, registry, catalog), budget(def.budget()),
        new Permissions(def.permissions().read(), def.permissions().write(), DefinitionDefaults.FORBIDDEN,
            LedgerScope.SESSION),
        new QualityGateConfig(DefinitionDefaults.MAX_RETRIES, DefinitionDefaults.MAX_RESPONSE_CHARS));
    // The bytes it was read from, so list_packages and the integrity gate show the file's own hash.
    ResourceFile file = new ResourceFile(d.file(), d.source().map(DefinitionSource::bytes)
        .orElseGet(() -> Json.canonical(Json.tree(def)).getBytes(StandardCharsets.UTF_8)));
    return new AddedAgent(config, own.isPresent() ? Optional.empty() : Optional.of(template), file,
        d.source().map(DefinitionSource::file).flatMap(Optional::ofNullable), model);
  }

  /** {@code SUPPORT_BOT} → {@code support-bot}: the agent id pattern is lower case with dashes. */
  static String agentId(String agentClass) {
    return agentClass.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }

  /** The default template's id for a class: {@code SUPPORT_BOT} → {@code ATT-SUPPORT-BOT-001}. */
  static String templateId(String agentClass) {
    return "ATT-" + agentClass.replace('_', '-') + "-001";
  }

  private static List<ToolSpec> tools(AgentDefinition def, ToolRegistry registry, Catalog catalog) {
    Set<String> granted = new LinkedHashSet<>();
    for (String grant : def.tools()) {
      registry.matching(grant).forEach(t -> granted.add(t.name()));
    }
    List<ToolSpec> specs = new ArrayList<>();
    for (String name : granted) {
      RegisteredTool t = registry.find(name).orElseThrow();
      String approval = mostSpecific(def.approval(), name);
      // The definition's approval timeout is every approval's, also of a tool that needs one by default
      // (write_file): it used to apply only to tools the approval map named.
      Long timeout = def.approvalTimeoutSeconds();
      if (t.origin().kind() == ToolOrigin.Kind.BUILTIN) {
        ToolSpec shipped = builtinSpec(catalog, name);
        specs.add(new ToolSpec(name, shipped.description(), shipped.parameters(), approval, timeout, null));
      } else {
        JsonNode schema = t.argumentsSchema().orElseGet(() -> Json.object().put("type", "object"));
        specs.add(new ToolSpec(name, t.description(), schema, approval, timeout, null,
            mostSpecific(def.toolTimeoutSeconds(), name)));
      }
    }
    return specs;
  }

  /**
   * The value of the most specific pattern naming the tool ({@code a/b} before {@code a/*}) in an
   * {@code approval} or {@code tool_timeout_seconds} map; null when none does.
   */
  private static <V> V mostSpecific(java.util.Map<String, V> byPattern, String tool) {
    V value = byPattern.get(tool);
    if (value != null) {
      return value;
    }
    return byPattern.entrySet().stream()
        .filter(e -> GrantPattern.parse(e.getKey()).map(p -> p.matches(tool)).orElse(false))
        .map(java.util.Map.Entry::getValue).findFirst().orElse(null);
  }

  /** A built-in tool's description and schema, as the shipped agent files give it (ADMIN first: it has every one). */
  private static ToolSpec builtinSpec(Catalog catalog, String id) {
    List<AgentConfig> agents = new ArrayList<>(catalog.agents());
    agents.sort((a, b) -> "ADMIN".equals(a.agentClass()) ? -1 : "ADMIN".equals(b.agentClass()) ? 1 : 0);
    return agents.stream().flatMap(a -> a.tool(id).stream()).findFirst()
        .orElse(new ToolSpec(id, id, Json.object().put("type", "object")));
  }

  private static AgentBudget budget(AgentDefinition.Budget b) {
    return new AgentBudget(
        b.sessionTokens() == null ? DefinitionDefaults.SESSION_TOKENS : b.sessionTokens(),
        b.turnLimit() == null ? DefinitionDefaults.TURN_LIMIT : b.turnLimit(),
        DefinitionDefaults.SESSION_SECONDS, DefinitionDefaults.IDLE_SECONDS,
        b.workOrderTokens() == null ? DefinitionDefaults.WORK_ORDER_TOKENS : b.workOrderTokens(),
        DefinitionDefaults.WORK_ORDER_ROUNDS, 0, 0, b.workOrderUsd(), b.sessionUsd());
  }

  private static AttentionTemplate defaultTemplate(String agentClass) {
    try (InputStream in = DefinitionConfigs.class.getResourceAsStream(DEFAULT_TEMPLATE)) {
      if (in == null) {
        throw new IllegalStateException(DEFAULT_TEMPLATE + " is missing from the classpath");
      }
      ObjectNode t = (ObjectNode) Json.MAPPER.readTree(in);
      t.put("template_id", templateId(agentClass));
      t.putObject("applies_to").putArray("agent_class").add(agentClass);
      return Json.MAPPER.treeToValue(t, AttentionTemplate.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + DEFAULT_TEMPLATE, e);
    }
  }
}
