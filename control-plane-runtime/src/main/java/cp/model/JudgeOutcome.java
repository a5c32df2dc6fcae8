package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * What an eval judge work order decided: pass or fail and why, what it cost, its work order, and
 * the error when the work order failed (then {@code pass} is false and the reason says so).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record JudgeOutcome(boolean pass, String reason, double costUsd, String workOrderId, String error) {}
