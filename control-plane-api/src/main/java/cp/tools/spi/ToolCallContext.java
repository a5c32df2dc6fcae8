package cp.tools.spi;

import java.util.Objects;

/**
 * Who a tool call is made for; it travels beside the arguments and is never part of the
 * argument schema, so the model can neither see nor forge it.
 *
 * @param sessionId the session whose work order made the call ({@code SES-…})
 * @param agentClass the calling agent class ({@code WEATHER}, {@code ADMIN}, …)
 * @param workOrderId the work order whose tool loop made the call
 * @param idempotencyKey the same on every retry of the same call and different for every other
 *     call: a tool with effects outside the plane (a payment, a ticket, an e-mail) can pass it on,
 *     or remember it, so that a retried call does its effect once
 */
public record ToolCallContext(String sessionId, String agentClass, String workOrderId, String idempotencyKey) {
  public ToolCallContext {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(agentClass, "agentClass");
    Objects.requireNonNull(workOrderId, "workOrderId");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    if (idempotencyKey.isBlank()) {
      throw new IllegalArgumentException("idempotencyKey is blank: every call has one");
    }
  }
}
