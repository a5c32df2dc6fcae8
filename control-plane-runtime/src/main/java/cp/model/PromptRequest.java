package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * A provider-neutral request to the gateway: identity, prompt, tools and boundary.
 *
 * <p>Identity fields say who asks and under which contract, work order and session; the
 * Temporal fields ({@code workflowId}, {@code runId}, {@code activityId}, {@code attempt}) link
 * the EXCHANGE record to the history event that dispatched the call. Build one with
 * {@link #builder()}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PromptRequest(
    String contractId,
    String promptPackId,
    String agentId,
    String agentClass,
    String frameworkId,
    String workOrderId,
    String sessionId,
    String tier,
    String system,
    List<Message> messages,
    List<ToolDefinition> tools,
    int maxTokens,
    double temperature,
    String provider,
    String model,
    boolean structuredOutput,
    JsonNode outputSchema,
    Long tokenBudgetRemaining,
    String workflowId,
    String runId,
    String activityId,
    Integer attempt,
    Double usdBudgetRemaining,
    String usdBudgetLevel,
    String tenant,
    List<FallbackModel> fallback,
    Integer hop) {

  public PromptRequest {
    Objects.requireNonNull(contractId, "contract_id");
    Objects.requireNonNull(sessionId, "session_id");
    system = system == null ? "" : system;
    messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    tools = tools == null ? List.of() : List.copyOf(tools);
    outputSchema = outputSchema == null ? null : outputSchema.deepCopy();
    fallback = fallback == null ? null : List.copyOf(fallback);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.contractId = contractId;
    b.promptPackId = promptPackId;
    b.agentId = agentId;
    b.agentClass = agentClass;
    b.frameworkId = frameworkId;
    b.workOrderId = workOrderId;
    b.sessionId = sessionId;
    b.tier = tier;
    b.system = system;
    b.messages = messages;
    b.tools = tools;
    b.maxTokens = maxTokens;
    b.temperature = temperature;
    b.provider = provider;
    b.model = model;
    b.structuredOutput = structuredOutput;
    b.outputSchema = outputSchema;
    b.tokenBudgetRemaining = tokenBudgetRemaining;
    b.workflowId = workflowId;
    b.runId = runId;
    b.activityId = activityId;
    b.attempt = attempt;
    b.usdBudgetRemaining = usdBudgetRemaining;
    b.usdBudgetLevel = usdBudgetLevel;
    b.tenant = tenant;
    b.fallback = fallback;
    b.hop = hop;
    return b;
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private String contractId;
    private String promptPackId;
    private String agentId;
    private String agentClass;
    private String frameworkId;
    private String workOrderId;
    private String sessionId;
    private String tier = "ho1";
    private String system = "";
    private List<Message> messages = List.of();
    private List<ToolDefinition> tools = List.of();
    private int maxTokens = 1024;
    private double temperature;
    private String provider;
    private String model;
    private boolean structuredOutput;
    private JsonNode outputSchema;
    private Long tokenBudgetRemaining;
    private String workflowId;
    private String runId;
    private String activityId;
    private Integer attempt;
    private Double usdBudgetRemaining;
    private String usdBudgetLevel;
    private String tenant;
    private List<FallbackModel> fallback;
    private Integer hop;

    public Builder contractId(String v) { contractId = v; return this; }
    public Builder promptPackId(String v) { promptPackId = v; return this; }
    public Builder agentId(String v) { agentId = v; return this; }
    public Builder agentClass(String v) { agentClass = v; return this; }
    public Builder frameworkId(String v) { frameworkId = v; return this; }
    public Builder workOrderId(String v) { workOrderId = v; return this; }
    public Builder sessionId(String v) { sessionId = v; return this; }
    public Builder tier(String v) { tier = v; return this; }
    public Builder system(String v) { system = v; return this; }
    public Builder messages(List<Message> v) { messages = v; return this; }
    public Builder tools(List<ToolDefinition> v) { tools = v; return this; }
    public Builder maxTokens(int v) { maxTokens = v; return this; }
    public Builder temperature(double v) { temperature = v; return this; }
    public Builder provider(String v) { provider = v; return this; }
    public Builder model(String v) { model = v; return this; }
    public Builder structuredOutput(boolean v) { structuredOutput = v; return this; }
    public Builder outputSchema(JsonNode v) { outputSchema = v; return this; }
    public Builder tokenBudgetRemaining(Long v) { tokenBudgetRemaining = v; return this; }
    public Builder workflowId(String v) { workflowId = v; return this; }
    public Builder runId(String v) { runId = v; return this; }
    public Builder activityId(String v) { activityId = v; return this; }
    public Builder attempt(Integer v) { attempt = v; return this; }
    /** Issue 23: US dollars left of the tightest dollar budget above the call, and its level (null: none). */
    public Builder usdBudget(Double left, String level) { usdBudgetRemaining = left; usdBudgetLevel = level; return this; }
    /** Issue 23: the session's tenant (null: {@code default}). */
    public Builder tenant(String v) { tenant = v; return this; }
    /** Issue 23: the models to try next, in order (null: the gateway's default chain; empty: none). */
    public Builder fallback(List<FallbackModel> v) { fallback = v; return this; }
    /** Issue 23: which model of the chain this is (null or 0: the first). */
    public Builder hop(Integer v) { hop = v; return this; }

    public PromptRequest build() {
      return new PromptRequest(contractId, promptPackId, agentId, agentClass, frameworkId, workOrderId,
          sessionId, tier, system, messages, tools, maxTokens, temperature, provider, model, structuredOutput,
          outputSchema, tokenBudgetRemaining, workflowId, runId, activityId, attempt, usdBudgetRemaining,
          usdBudgetLevel, tenant, fallback, hop);
    }
  }
}
