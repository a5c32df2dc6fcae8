package cp.activities;

import cp.model.AgentProfile;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.DegradedRequest;
import cp.model.Ho2Record;
import cp.model.Ho2RecordResult;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.SessionEvent;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.WoFinishRequest;
import cp.model.WorkOrder;
import java.util.Objects;

/**
 * Activities registered once on a test service that forward to the current test's plane, so
 * one Temporal service (slow to stop) serves a whole test class while every test gets its own
 * plane root, provider and ledgers.
 */
final class PlaneActivities {
  private PlaneActivities() {}

  /** Forwards to the HO1 activities of the current plane. */
  static final class Ho1 implements Ho1Activities {
    volatile Ho1Activities target;

    private Ho1Activities t() {
      return Objects.requireNonNull(target, "no plane is open");
    }

    @Override
    public PreparedWorkOrder prepare(WorkOrder workOrder) {
      return t().prepare(workOrder);
    }

    @Override
    public LlmRoundResult llmRound(LlmRoundRequest request) {
      return t().llmRound(request);
    }

    @Override
    public ToolCallResult toolCall(ToolCallRequest request) {
      return t().toolCall(request);
    }

    @Override
    public WorkOrder finish(WoFinishRequest request) {
      return t().finish(request);
    }

    @Override
    public LlmRoundResult degradedCall(DegradedRequest request) {
      return t().degradedCall(request);
    }
  }

  /** Forwards to the HO2 activities of the current plane. */
  static final class Ho2 implements Ho2Activities {
    volatile Ho2Activities target;

    private Ho2Activities t() {
      return Objects.requireNonNull(target, "no plane is open");
    }

    @Override
    public Ho2RecordResult record(Ho2Record record) {
      return t().record(record);
    }

    @Override
    public AttentionResult attend(AttentionRequest request) {
      return t().attend(request);
    }
  }

  /** Forwards to the session activities of the current plane. */
  static final class Session implements SessionActivities {
    volatile SessionActivities target;

    private SessionActivities t() {
      return Objects.requireNonNull(target, "no plane is open");
    }

    @Override
    public AgentProfile profile(String agentClass) {
      return t().profile(agentClass);
    }

    @Override
    public AgentProfile profileForTenant(String agentClass, String tenant) {
      return t().profileForTenant(agentClass, tenant);
    }

    @Override
    public String record(SessionEvent event) {
      return t().record(event);
    }

    @Override
    public long turnSpend(String sessionId, String turnWorkflowId) {
      return t().turnSpend(sessionId, turnWorkflowId);
    }

    @Override
    public cp.model.WoCost turnCost(String sessionId, String turnWorkflowId) {
      return t().turnCost(sessionId, turnWorkflowId);
    }

    @Override
    public cp.model.TenantRoom tenantRoom(cp.model.TenantRoom.Request request) {
      return t().tenantRoom(request);
    }
  }
}
