package cp.contracts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.model.ToolDefinition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One agent class (ADMIN, RESIDENT, ...): everything that makes it different from another.
 *
 * <p>The runtime code is shared; an agent is only this configuration (the factory pattern of
 * the design): its system prompt, attention template, tools, budget, file permissions and
 * quality gate. Each class also gets its own HO2 ledger, named after {@code agentClass}.
 *
 * <p>{@code approvers} (issue 20, optional): the names that may decide this agent's tool calls
 * that wait for a person ({@code decided_by} of the {@code approve} Update); empty: anyone who
 * can send the Update.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentConfig(
    String agentId,
    String agentClass,
    String version,
    String frameworkId,
    String tier,
    String description,
    String systemPrompt,
    Attention attention,
    List<ToolSpec> tools,
    AgentBudget budget,
    Permissions permissions,
    QualityGateConfig qualityGate,
    List<String> approvers) {

  public AgentConfig {
    Objects.requireNonNull(agentId, "agent_id");
    Objects.requireNonNull(agentClass, "agent_class");
    Objects.requireNonNull(systemPrompt, "system_prompt");
    Objects.requireNonNull(attention, "attention");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(qualityGate, "quality_gate");
    version = version == null ? "0.0.0" : version;
    description = description == null ? "" : description;
    tools = tools == null ? List.of() : List.copyOf(tools);
    permissions = permissions == null ? new Permissions(null, null, null) : permissions;
    approvers = approvers == null ? List.of() : List.copyOf(approvers);
  }

  /** An agent without an approvers list (anyone who can send the approve Update decides). */
  public AgentConfig(String agentId, String agentClass, String version, String frameworkId, String tier,
      String description, String systemPrompt, Attention attention, List<ToolSpec> tools, AgentBudget budget,
      Permissions permissions, QualityGateConfig qualityGate) {
    this(agentId, agentClass, version, frameworkId, tier, description, systemPrompt, attention, tools, budget,
        permissions, qualityGate, List.of());
  }

  /** Which attention template assembles this agent's context. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Attention(String templateId) {
    public Attention {
      Objects.requireNonNull(templateId, "attention.template_id");
    }
  }

  /** The ids of the agent's tools, in configuration order. */
  public List<String> toolIds() {
    return tools.stream().map(ToolSpec::toolId).toList();
  }

  public Optional<ToolSpec> tool(String toolId) {
    return tools.stream().filter(t -> t.toolId().equals(toolId)).findFirst();
  }

  /** The tools as the gateway sends them to the model. */
  public List<ToolDefinition> toolDefinitions() {
    return tools.stream().map(ToolSpec::toDefinition).toList();
  }

  public String attentionTemplateId() {
    return attention.templateId();
  }
}
