package cp.gateway;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.LocalDate;

/**
 * The tenants' spend per UTC day and month, shared by every worker that uses the same store
 * (issue 23): {@link JsonlTenantCounters} (the plane's files, one host) or
 * {@link PostgresTenantCounters} (any host). A call reserves its worst case under its key before it
 * is sent (a call asked again under the same key finds its reservation and never reserves twice;
 * the gateway keys each attempt of an activity apart, as attempts on two workers may both be
 * billed), and its
 * reservation is settled to what it cost when it returns; a reservation nobody settles (its worker
 * died) stops counting when it expires.
 */
public interface TenantCounters extends AutoCloseable {
  /** Levels of a tenant's caps, as refusals name them. */
  String DAY = cp.model.UsdBudgets.TENANT_DAY;
  String MONTH = cp.model.UsdBudgets.TENANT_MONTH;

  /**
   * Reserves {@code amount} US dollars for the call {@code key} of {@code tenant} when spent plus
   * unexpired reservations plus it fit under every cap; refuses naming the level that cannot take it.
   */
  Decision reserve(String tenant, TenantCaps.Caps caps, String key, double amount, Instant now, Instant expires);

  /** Settles the reservation of {@code key} to {@code actual} US dollars (0: the call was not billed). */
  void settle(String key, double actual);

  /** Drops the reservation of {@code key} unsettled: the call failed and was not billed; its retry reserves again. */
  void release(String key);

  /** What {@code tenant} has spent and holds reserved today and this month. */
  Totals totals(String tenant, Instant now);

  /**
   * What every tenant holds reserved and unsettled at {@code now} (calls in flight, or whose
   * worker died before the reservation expired), in US dollars; tenants holding nothing are absent.
   */
  java.util.Map<String, Double> heldByTenant(Instant now);

  /**
   * Replaces what {@code tenant}'s settled calls hold with {@code spentByDay} (UTC day
   * {@code YYYY-MM-DD} → US dollars, from the HOT ledger's EXCHANGEs), in one step under the
   * tenant's lock (a reservation of the tenant waits for it, on any host). Reservations in flight are
   * left alone, and a tenant holding any (unsettled and unexpired at {@code now}) is not rebuilt: its
   * calls may settle before their EXCHANGE is written, so the ledger is not yet the whole truth. A
   * second rebuild from the same ledger changes nothing.
   */
  Rebuilt rebuild(String tenant, java.util.Map<String, Double> spentByDay, Instant now);

  @Override
  default void close() {}

  /**
   * What {@link #rebuild} did for a tenant: its totals before and after (now's day and month), or
   * nothing when {@code inFlight} calls held reservations (then {@code after} equals {@code before}).
   */
  record Rebuilt(String tenant, Totals before, Totals after, int inFlight) {
    public boolean done() {
      return inFlight == 0;
    }
  }

  /** The key of the settled row a rebuild writes for {@code tenant}'s {@code day}. */
  static String rebuiltKey(String tenant, String day) {
    return "rebuilt/" + tenant + "/" + day;
  }

  /** The month ({@code YYYY-MM}) of a UTC day {@code YYYY-MM-DD}. */
  static String monthOf(String day) {
    return day.substring(0, 7);
  }

  /** A reservation's outcome: granted, or refused at a level with its cap, what is spent and reserved, and the reset. */
  record Decision(boolean granted, String level, double cap, double spent, double reserved, Instant resets) {
    static Decision ok() {
      return new Decision(true, null, 0, 0, 0, null);
    }
  }

  /** A tenant's spend and reservations in the current day and month. */
  record Totals(double daySpent, double dayReserved, double monthSpent, double monthReserved) {}

  /** The UTC day of {@code now}, {@code 2026-11-26}. */
  static String day(Instant now) {
    return LocalDate.ofInstant(now, ZoneOffset.UTC).toString();
  }

  /** The UTC month of {@code now}, {@code 2026-11}. */
  static String month(Instant now) {
    return YearMonth.from(LocalDate.ofInstant(now, ZoneOffset.UTC)).toString();
  }

  /** When the day of {@code now} ends (UTC midnight). */
  static Instant dayResets(Instant now) {
    return LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** When the month of {@code now} ends. */
  static Instant monthResets(Instant now) {
    return YearMonth.from(LocalDate.ofInstant(now, ZoneOffset.UTC)).plusMonths(1).atDay(1)
        .atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** The decision for spent/reserved figures of both levels (shared by the stores). */
  static Decision decide(TenantCaps.Caps caps, double amount, Totals t, Instant now) {
    if (caps.dailyUsd().isPresent() && t.daySpent() + t.dayReserved() + amount > caps.dailyUsd().get()) {
      return new Decision(false, DAY, caps.dailyUsd().get(), t.daySpent(), t.dayReserved(), dayResets(now));
    }
    if (caps.monthlyUsd().isPresent() && t.monthSpent() + t.monthReserved() + amount > caps.monthlyUsd().get()) {
      return new Decision(false, MONTH, caps.monthlyUsd().get(), t.monthSpent(), t.monthReserved(), monthResets(now));
    }
    return Decision.ok();
  }
}
