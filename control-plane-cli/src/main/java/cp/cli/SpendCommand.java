package cp.cli;

import cp.gateway.SpendReport;
import cp.gateway.TenantCounters;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.Json;
import cp.model.TenantId;
import cp.worker.PlaneConfig;
import cp.worker.TenantSpend;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Issue 23: what the model calls cost, by tenant, agent class, model or day, from the HOT ledger's
 * EXCHANGEs, and beside it what the tenant counters hold reserved and unsettled per tenant; with
 * {@code --rebuild}, the counters rebuilt from those EXCHANGEs ({@link SpendRebuildOutput}).
 */
@Command(name = "spend", mixinStandardHelpOptions = true,
    description = "What model calls cost (USD), grouped, from the HOT ledger's EXCHANGE entries.")
final class SpendCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--tenant", description = "Only this tenant's calls.")
  String tenant;

  @Option(names = "--since", paramLabel = "DATE", description = "Only calls on or after this UTC day (YYYY-MM-DD).")
  String since;

  @Option(names = "--by", defaultValue = "tenant", description = "tenant, agent, model or day. Default: ${DEFAULT-VALUE}.")
  String by;

  @Option(names = "--json", description = "One JSON object: groups, spent_usd, calls, total_usd, reserved_usd.")
  boolean json;

  @Option(names = "--rebuild", description = "Rebuild the tenant counters' settled spend from the HOT ledger's"
      + " EXCHANGEs (every tenant the ledger names, or --tenant's), leaving calls in flight alone; prints each"
      + " tenant's day and month before and after.")
  boolean rebuild;

  @Override
  public Integer call() {
    SpendReport.By grouping = SpendReport.By.parse(by);
    Optional<String> t = Optional.ofNullable(tenant).map(String::trim);
    t.flatMap(TenantId::problem).ifPresent(why -> {
      throw new IllegalArgumentException("--tenant: " + why);
    });
    Optional<LocalDate> day;
    try {
      day = Optional.ofNullable(since).map(s -> LocalDate.parse(s.trim()));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--since must be a day YYYY-MM-DD (UTC), was '" + since + "'");
    }
    PlaneConfig cfg = config();
    if (rebuild) {
      if (day.isPresent()) {
        throw new IllegalArgumentException("--rebuild reads the whole ledger: leave out --since");
      }
      // It writes the counters only: the ledgers it reads open read-only (a torn tail stays, with a warning).
      return SpendRebuildOutput.run(cfg, readLedgers(cfg), t, json, out(), err());
    }
    try (Ledgers ledgers = readLedgers(cfg)) {
      List<cp.ledger.LedgerEntry> hot = ledgers.existing(Tier.HOT, null).map(l -> l.readAll()).orElse(List.of());
      SpendReport report = SpendReport.of(hot, grouping, t, day).withHeld(held(cfg));
      if (json) {
        out().println(Json.write(report.toJson()));
      } else {
        report.lines().forEach(out()::println);
      }
    }
    return Cpctl.OK;
  }

  /** What the plane's tenant counters hold unsettled, per tenant (none when no worker kept counters). */
  private static Map<String, Double> held(PlaneConfig cfg) {
    Optional<TenantCounters> counters = TenantSpend.existing(cfg);
    if (counters.isEmpty()) {
      return Map.of();
    }
    try (TenantCounters c = counters.get()) {
      return c.heldByTenant(Instant.now());
    }
  }
}
