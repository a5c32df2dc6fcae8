package cp.gateway;

import cp.model.PromptRequest;
import cp.model.TenantId;
import cp.model.UsdBudgets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Issue 23: the tenant caps at the gateway's door. A call of a tenant with a daily or monthly cap
 * reserves its worst case (as {@link DollarReservation} computes it) in the shared
 * {@link TenantCounters} under its idempotency key before it is sent; a call that does not fit
 * while other reservations of the tenant are in flight waits for them (at most {@code wait}) and
 * is then refused, naming the level, its cap, what is spent and held, and when it resets. The
 * reservation is settled to the call's cost when it answers and released when it fails unbilled;
 * one whose worker died expires after {@code expiry} (the longest an LLM call may run).
 */
public final class TenantGuard implements AutoCloseable {
  /** The variable bounding how long a call waits for the tenant's in-flight reservations. */
  public static final String WAIT_VARIABLE = "CP_TENANT_WAIT_MS";
  /**
   * Five seconds: long enough for most in-flight calls of the tenant to answer and settle below
   * their worst case (a short answer settles far below max_tokens), short against a turn's deadline.
   */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);
  /** How often a waiting call asks again. */
  static final Duration POLL = Duration.ofMillis(50);
  /** No caps: nothing is reserved. */
  public static final TenantGuard NONE = new TenantGuard(TenantCaps.NONE, null, Duration.ZERO, Duration.ZERO,
      Clock.systemUTC());

  private final TenantCaps caps;
  private final TenantCounters counters;
  private final Duration wait;
  private final Duration expiry;
  private final Clock clock;

  public TenantGuard(TenantCaps caps, TenantCounters counters, Duration wait, Duration expiry, Clock clock) {
    this.caps = caps;
    this.counters = counters;
    this.wait = wait;
    this.expiry = expiry;
    this.clock = clock;
  }

  /** The label of a daily cap's gauge. */
  public static final String DAY = "day";
  /** The label of a monthly cap's gauge. */
  public static final String MONTH = "month";
  /** Tenants whose remaining-budget gauges are registered (once each). */
  private final java.util.Set<String> watched = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Hands {@code register} a reader of what each capped period of {@code tenant} has left, the
   * first time the tenant is seen (the metrics' remaining-budget gauges).
   */
  public void watch(String tenant, java.util.function.BiConsumer<String, java.util.function.Supplier<Number>> register) {
    String t = TenantId.orDefault(tenant);
    Optional<TenantCaps.Caps> c = counters == null ? Optional.empty() : caps.of(t);
    if (c.isEmpty() || !watched.add(t)) {
      return;
    }
    c.get().dailyUsd().ifPresent(cap -> register.accept(DAY, () -> remaining(t, cap, true)));
    c.get().monthlyUsd().ifPresent(cap -> register.accept(MONTH, () -> remaining(t, cap, false)));
  }

  /** Cap less spent less held now; NaN when the counters cannot be read (a scrape must not fail). */
  private double remaining(String tenant, double cap, boolean day) {
    try {
      TenantCounters.Totals t = counters.totals(tenant, clock.instant());
      return day ? cap - t.daySpent() - t.dayReserved() : cap - t.monthSpent() - t.monthReserved();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  /** A call's reservation: settle or release it once (a no-op when nothing was reserved). */
  public final class Held {
    private final String key;

    private Held(String key) {
      this.key = key;
    }

    void settle(double cost) {
      if (key != null) {
        counters.settle(key, cost);
      }
    }

    void release() {
      if (key != null) {
        counters.release(key);
      }
    }
  }

  /** What {@link #reserve} decided: a reservation, or why the call may not be sent and which budget refused it. */
  record Outcome(Held held, String refusal, cp.model.RefusalKind kind) {
    Outcome(Held held, String refusal) {
      this(held, refusal, null);
    }
  }

  /** Reserves the worst case of {@code r} for its tenant when the tenant has a cap. */
  Outcome reserve(PromptRequest r, String key, String model, Optional<Pricing> pricing) {
    String tenant = TenantId.orDefault(r.tenant());
    Optional<TenantCaps.Caps> c = counters == null ? Optional.empty() : caps.of(tenant);
    if (c.isEmpty()) {
      return new Outcome(new Held(null), null);
    }
    if (pricing.isEmpty()) {
      String level = c.get().dailyUsd().isPresent() ? TenantCounters.DAY : TenantCounters.MONTH;
      return new Outcome(null, UsdBudgets.unpricedRefusal(level, model), cp.model.RefusalKind.UNPRICED_TENANT);
    }
    long estimate = TokenEstimate.ofPrompt(r);
    double worst = pricing.get().worstCase(estimate, Math.max(0, r.maxTokens()));
    String k = key != null ? key : "untracked/" + UUID.randomUUID();
    long deadline = clock.millis() + wait.toMillis();
    while (true) {
      Instant now = clock.instant();
      TenantCounters.Decision d = counters.reserve(tenant, c.get(), k, worst, now, now.plus(expiry));
      if (d.granted()) {
        return new Outcome(new Held(k), null);
      }
      if (d.reserved() <= 0 || clock.millis() >= deadline) {
        return new Outcome(null, UsdBudgets.refusal(d.level(), Math.max(0, d.cap() - d.spent() - d.reserved()), worst,
            "tenant " + tenant + "'s " + (TenantCounters.DAY.equals(d.level()) ? "daily" : "monthly") + " cap "
                + UsdBudgets.usd(d.cap()) + " has " + UsdBudgets.usd(d.spent()) + " spent and "
                + UsdBudgets.usd(d.reserved()) + " held by calls in flight; it resets at " + d.resets()),
            cp.model.RefusalKind.ofUsdLevel(d.level()));
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Outcome(null, "interrupted while waiting for tenant " + tenant + "'s calls in flight");
      }
    }
  }

  /**
   * Issue 23, refused up front: whether {@code tenant} has spent too much today or this month to pay
   * for a call of {@code promptTokens} and {@code maxTokens} at {@code pricing}; what is held by
   * calls in flight does not count here (it may settle lower, and the call itself waits for it).
   * Empty when the tenant has no cap or the call has no price (the gateway then decides).
   */
  public Optional<UpFront> upFront(String tenant, Optional<Pricing> pricing, long promptTokens, long maxTokens) {
    Optional<TenantCaps.Caps> c = counters == null ? Optional.empty() : caps.of(TenantId.orDefault(tenant));
    if (c.isEmpty() || pricing.isEmpty()) {
      return Optional.empty();
    }
    double needed = pricing.get().worstCase(Math.max(0, promptTokens), Math.max(0, maxTokens));
    Instant now = clock.instant();
    TenantCounters.Totals t = counters.totals(TenantId.orDefault(tenant), now);
    TenantCounters.Decision d = TenantCounters.decide(c.get(), needed,
        new TenantCounters.Totals(t.daySpent(), 0, t.monthSpent(), 0), now);
    return d.granted() ? Optional.empty() : Optional.of(new UpFront(d, needed));
  }

  /**
   * Whether {@code tenant} (null: {@code default}) has a daily or monthly cap this guard keeps: its
   * own entry or the {@code default} entry of {@code CP_TENANTS_FILE}, with counters to keep it in.
   */
  public boolean capped(String tenant) {
    return counters != null && caps.of(TenantId.orDefault(tenant)).isPresent();
  }

  /** Whether this guard keeps any tenant's daily or monthly cap (CP_TENANTS_FILE sets one). */
  public boolean keepsCaps() {
    return counters != null && caps.any();
  }

  /** A tenant cap that cannot pay for a call: the counters' decision and what the call needs. */
  public record UpFront(TenantCounters.Decision decision, double needed) {}

  @Override
  public void close() {
    if (counters != null) {
      counters.close();
    }
  }
}
