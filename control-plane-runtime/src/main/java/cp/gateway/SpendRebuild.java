package cp.gateway;

import cp.ledger.LedgerEntry;
import cp.model.TenantId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Issue 23: the tenant counters rebuilt from the HOT ledger ({@code cpctl spend --rebuild}). What
 * each tenant's settled calls hold becomes what its EXCHANGEs cost per UTC day ({@code cost_usd},
 * as {@code cpctl spend} adds them up), tenant by tenant, each in one step under the tenant's lock;
 * reservations in flight stay as they are, and a tenant holding any is left for a later run
 * ({@link TenantCounters#rebuild}).
 */
public final class SpendRebuild {
  private static final Pattern DAY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  private SpendRebuild() {}

  /** Per tenant ({@code tenant} alone when given), per UTC day: what the EXCHANGEs of {@code hot} cost. */
  public static Map<String, Map<String, Double>> spentByTenantDay(List<LedgerEntry> hot, Optional<String> tenant) {
    Map<String, Map<String, Double>> out = new TreeMap<>();
    tenant.ifPresent(t -> out.put(t, new TreeMap<>()));
    for (LedgerEntry e : hot) {
      if (!ExchangeRecords.EXCHANGE.equals(e.eventType())) {
        continue;
      }
      String t = TenantId.orDefault(e.metaText(ExchangeRecords.TENANT));
      String day = SpendReport.dayOf(e);
      if ((tenant.isPresent() && !tenant.get().equals(t)) || !DAY.matcher(day).matches()) {
        continue;
      }
      out.computeIfAbsent(t, k -> new TreeMap<>()).merge(day, SpendReport.costOf(e), Double::sum);
    }
    return out;
  }

  /**
   * Rebuilds {@code counters} from {@code hot}: every tenant the ledger names and every tenant holding
   * a call in flight in the counters (whose first EXCHANGE may not be written yet: it is reported as
   * not rebuilt, not passed over), or {@code tenant} alone, even with no EXCHANGE (its settled spend
   * then becomes 0). Returns what each became; empty when there is nothing to rebuild.
   */
  public static List<TenantCounters.Rebuilt> run(TenantCounters counters, List<LedgerEntry> hot,
      Optional<String> tenant, Instant now) {
    Map<String, Map<String, Double>> spent = spentByTenantDay(hot, tenant);
    if (tenant.isEmpty()) {
      counters.heldByTenant(now).keySet().forEach(t -> spent.putIfAbsent(t, new TreeMap<>()));
    }
    List<TenantCounters.Rebuilt> out = new ArrayList<>();
    spent.forEach((t, days) -> out.add(counters.rebuild(t, days, now)));
    return out;
  }
}
