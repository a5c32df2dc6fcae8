package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * Issue 23: whether the session's tenant can pay for a turn's smallest call under its daily and
 * monthly caps (what the tenant counters hold spent now), asked by the session before the turn
 * runs. Refused: the level ({@code tenant_day} or {@code tenant_month}), the cap, what is spent,
 * what the call needs, when the level resets (ISO instant) and the user's message; else all null.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantRoom(String level, Double capUsd, Double spentUsd, Double neededUsd, String resets,
    String message) {
  /** The tenant can pay (or has no cap, or the call has no price: the gateway then decides). */
  public static final TenantRoom ENOUGH = new TenantRoom(null, null, null, null, null, null);

  @JsonIgnore
  public boolean refused() {
    return level != null;
  }

  /** What the session asks: the tenant, the agent whose smallest call it is, and the message's estimated tokens. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Request(String tenant, String agentClass, long messageTokens) {}
}
