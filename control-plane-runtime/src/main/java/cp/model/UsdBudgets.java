package cp.model;

import java.util.Locale;

/**
 * The dollar budgets of a work order and a session (issue 23): their levels and the words by which
 * the gateway's refusal of a call they cannot pay for is told apart from a token budget's. Pure
 * values, safe in workflows.
 */
public final class UsdBudgets {
  /** The level of a work order's own cap, {@code budget.work_order_usd}. */
  public static final String WORK_ORDER = "work_order";
  /** The level of a session's cap, {@code budget.session_usd}. */
  public static final String SESSION = "session";
  /** How every refusal for dollars begins. */
  static final String PREFIX = "USD budget (";

  private UsdBudgets() {}

  /** The gateway's refusal of a call the {@code level} budget cannot pay for. */
  public static String refusal(String level, double left, double reservation, String detail) {
    return PREFIX + level + ") has " + usd(left) + " left and this call reserves up to " + usd(reservation) + " ("
        + detail + "); it was not sent";
  }

  /** What a refusal says when the call's model has no price, so no dollar budget can be kept for it. */
  static final String UNPRICED = ") cannot be kept for this call: model '";

  /**
   * The gateway's refusal of a call whose {@code model} has no price: no reservation can be worked
   * out, so no {@code level} budget can be kept for it. The fix is a price, never a reset or a higher cap.
   */
  public static String unpricedRefusal(String level, String model) {
    return PREFIX + level + UNPRICED + model + "' has no price; add its price to CP_PRICES_FILE (a dollar budget"
        + " cannot be kept for a model without one); it was not sent";
  }

  /**
   * A refusal quoted inside another failure's message (a fallback model skipped for budget), worded
   * so that the failure is not read as a dollar budget's refusal ({@link #isRefusal}) itself.
   */
  public static String asNote(String refusal) {
    return refusal.replace(PREFIX, "the dollar budget (").replace("; it was not sent", "");
  }

  /** Whether a work order's error {@code message} is a refusal because its model has no price. */
  public static boolean isUnpricedRefusal(String message) {
    return isRefusal(message) && message.contains(UNPRICED);
  }

  /** What the user reads after an unpriced refusal: who can fix it and how; no reset or cap helps. */
  public static final String PRICE_ADVICE = "An operator must add that model's price to CP_PRICES_FILE (and restart"
      + " the worker); asking again, waiting for a reset or raising a cap does not help.";

  /** The file of the tenants' caps. */
  public static final String TENANTS_FILE = "CP_TENANTS_FILE";
  /** The level of a tenant's cap per UTC day ({@code CP_TENANTS_FILE} daily_usd). */
  public static final String TENANT_DAY = "tenant_day";
  /** The level of a tenant's cap per month ({@code CP_TENANTS_FILE} monthly_usd). */
  public static final String TENANT_MONTH = "tenant_month";

  /** Whether a work order's error {@code message} is a tenant cap's refusal (not the session's or the work order's). */
  public static boolean isTenantRefusal(String message) {
    return message != null && (message.contains(PREFIX + TENANT_DAY + ")") || message.contains(PREFIX + TENANT_MONTH
        + ")"));
  }

  /** Whether a work order's error {@code message} is a dollar budget's refusal. */
  public static boolean isRefusal(String message) {
    return message != null && message.contains(PREFIX);
  }

  /** The agent setting of a level. */
  public static String setting(String level) {
    return WORK_ORDER.equals(level) ? "budget.work_order_usd" : "budget.session_usd";
  }

  /** Dollars as people read them: four decimals (a call costs fractions of a cent). */
  public static String usd(double amount) {
    return String.format(Locale.ROOT, "$%.4f", amount);
  }
}
