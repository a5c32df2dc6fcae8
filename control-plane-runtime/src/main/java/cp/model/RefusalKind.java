package cp.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Which budget the gateway refused a call for, typed where the refusal is made (issue 23): the
 * workflow decides what to tell the user from it. Results recorded before it existed have none;
 * {@link #fromText} reads those from the refusal's words, the rule used before. Pure value, safe in
 * workflows.
 */
public enum RefusalKind {
  /** A token budget (the work order's or the session's). */
  TOKENS("tokens"),
  /** The work order's dollars, {@code budget.work_order_usd}. */
  WORK_ORDER_USD(UsdBudgets.WORK_ORDER),
  /** The session's dollars, {@code budget.session_usd}. */
  SESSION_USD(UsdBudgets.SESSION),
  /** The tenant's cap per UTC day. */
  TENANT_DAY(UsdBudgets.TENANT_DAY),
  /** The tenant's cap per month. */
  TENANT_MONTH(UsdBudgets.TENANT_MONTH),
  /** The work order's or the session's dollar budget cannot be kept: the call's model has no price. */
  UNPRICED("unpriced"),
  /** A tenant's cap cannot be kept: the call's model has no price (both an unpriced and a tenant refusal). */
  UNPRICED_TENANT("unpriced_tenant"),
  /** Anything else (not a budget's refusal, or one of a kind this version does not know). */
  OTHER("other");

  private final String wire;

  RefusalKind(String wire) {
    this.wire = wire;
  }

  @JsonValue
  public String wire() {
    return wire;
  }

  /** The kind written as {@code wire}; {@link #OTHER} for a name this version does not know. */
  @JsonCreator
  public static RefusalKind ofWire(String wire) {
    for (RefusalKind k : values()) {
      if (k.wire.equals(wire)) {
        return k;
      }
    }
    return OTHER;
  }

  /** The kind of a refusal by the dollar budget of {@code level} (work_order, session, tenant_day, tenant_month). */
  public static RefusalKind ofUsdLevel(String level) {
    RefusalKind k = ofWire(level);
    return k == OTHER || k == TOKENS || k.unpriced() ? WORK_ORDER_USD : k;
  }

  /** Any dollar budget's refusal, an unpriced model's included (as {@link UsdBudgets#isRefusal} read it). */
  public boolean usd() {
    return this != TOKENS && this != OTHER;
  }

  /** A tenant cap's refusal (an unpriced model's at a tenant's level included, as the words read). */
  public boolean tenant() {
    return this == TENANT_DAY || this == TENANT_MONTH || this == UNPRICED_TENANT;
  }

  /** A refusal because the call's model has no price, at any level. */
  public boolean unpriced() {
    return this == UNPRICED || this == UNPRICED_TENANT;
  }

  /**
   * The kind of a refusal recorded without one, from its words: {@link UsdBudgets#isUnpricedRefusal},
   * {@link UsdBudgets#isTenantRefusal} and {@link UsdBudgets#isRefusal}, as the workflow decided
   * before the kinds. A message that is no dollar budget's refusal is {@link #OTHER}.
   */
  public static RefusalKind fromText(String message) {
    if (!UsdBudgets.isRefusal(message)) {
      return OTHER;
    }
    if (UsdBudgets.isUnpricedRefusal(message)) {
      return UsdBudgets.isTenantRefusal(message) ? UNPRICED_TENANT : UNPRICED;
    }
    if (message.contains(UsdBudgets.PREFIX + UsdBudgets.TENANT_DAY + ")")) {
      return TENANT_DAY;
    }
    if (message.contains(UsdBudgets.PREFIX + UsdBudgets.TENANT_MONTH + ")")) {
      return TENANT_MONTH;
    }
    return message.contains(UsdBudgets.PREFIX + UsdBudgets.SESSION + ")") ? SESSION_USD : WORK_ORDER_USD;
  }

  /** {@code kind} when a result carries one, else what its {@code message} says ({@link #fromText}). */
  public static RefusalKind orFromText(RefusalKind kind, String message) {
    return kind != null ? kind : fromText(message);
  }
}
