package cp.worker;

import cp.gateway.JsonlTenantCounters;
import cp.gateway.PostgresTenantCounters;
import cp.gateway.ProviderConfigException;
import cp.gateway.TenantCaps;
import cp.gateway.TenantCounters;
import cp.gateway.TenantGuard;
import java.time.Clock;
import java.time.Duration;

/**
 * Issue 23: the tenant caps of a plane process ({@code CP_TENANTS_FILE}) and the counters they are
 * kept in: the ledger's PostgreSQL database when the ledgers are there (shared by every host),
 * else the plane's files under CP_HOME (one host).
 */
public final class TenantSpend {
  private TenantSpend() {}

  static TenantGuard guard(PlaneConfig config, Clock clock) {
    TenantCaps caps;
    try {
      caps = TenantCaps.fromEnv(config.env());
    } catch (ProviderConfigException e) {
      throw new ConfigException(e.variable(), e.getMessage(), e);
    }
    if (!caps.any()) {
      return TenantGuard.NONE;
    }
    String w = config.env().get(TenantGuard.WAIT_VARIABLE);
    Duration wait = w == null || w.isBlank() ? TenantGuard.DEFAULT_WAIT
        : Duration.ofMillis(EnvNumbers.positive(TenantGuard.WAIT_VARIABLE, w, Long.MAX_VALUE, "a positive whole number"
            + " of milliseconds"));
    TenantCounters counters = open(config);
    // A reservation nobody settles (its worker died) is held as long as the call could have run.
    return new TenantGuard(caps, counters, wait, config.worker().llmStartToClose(), clock);
  }

  /**
   * The counters a plane of {@code config} keeps, opened to be written ({@code cpctl spend --rebuild}):
   * its PostgreSQL database's with {@code CP_LEDGER_URL}, else the JSONL file under CP_HOME (created
   * when it is missing).
   */
  public static TenantCounters open(PlaneConfig config) {
    return config.ledgers().database() != null ? PostgresTenantCounters.open(config.ledgers().database())
        : new JsonlTenantCounters(config.ensureHome());
  }

  /**
   * The counters a plane of {@code config} keeps, for readers ({@code cpctl spend}), opened without
   * writing anything: its PostgreSQL database's with {@code CP_LEDGER_URL} (read-only connections, the
   * schema checked, never migrated; empty when no process created the counters' tables there); else the
   * JSONL file under CP_HOME if a worker wrote one (empty when none did: nothing was ever reserved there).
   */
  public static java.util.Optional<TenantCounters> existing(PlaneConfig config) {
    if (config.ledgers().database() != null) {
      return PostgresTenantCounters.openReadOnly(config.ledgers().database());
    }
    return java.nio.file.Files.isRegularFile(config.home().resolve(JsonlTenantCounters.FILE))
        ? java.util.Optional.of(new JsonlTenantCounters(config.home())) : java.util.Optional.empty();
  }
}
