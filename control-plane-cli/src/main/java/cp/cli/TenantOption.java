package cp.cli;

import cp.gateway.ProviderConfigException;
import cp.gateway.TenantCaps;
import cp.model.TenantId;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks {@code --tenant} of {@code cpctl chat} and {@code cpctl session start} before a session
 * starts (a tester's report): an empty or blank value became {@code default} silently, and since
 * tenant ids are case-sensitive ({@code ACME} and {@code acme} are two tenants, each with its own
 * caps), {@code --tenant ACME} escaped acme's caps. Refused instead, exit 2: a value that is given
 * must name a tenant, and one that differs only in case from a tenant of {@code CP_TENANTS_FILE}
 * (or from {@code default}) is refused with the tenant it resembles, never changed into it.
 */
final class TenantOption {
  private TenantOption() {}

  /** {@code tenant} as given (null: the default tenant), after the checks. */
  static String check(String tenant, Map<String, String> env) {
    if (tenant == null) {
      return null;
    }
    if (tenant.isBlank()) {
      throw new IllegalArgumentException("--tenant is empty: give a tenant id (e.g. --tenant acme), or leave"
          + " --tenant out for the tenant '" + TenantId.DEFAULT + "'");
    }
    TenantId.problem(tenant).ifPresent(why -> {
      throw new IllegalArgumentException("--tenant: " + why);
    });
    TreeSet<String> known = new TreeSet<>(configured(env));
    known.add(TenantId.DEFAULT);
    if (!known.contains(tenant)) {
      known.stream().filter(tenant::equalsIgnoreCase).findFirst().ifPresent(like -> {
        throw new IllegalArgumentException("--tenant '" + tenant + "' differs only in case from the tenant '" + like
            + "'" + (like.equals(TenantId.DEFAULT) ? "" : " of " + TenantCaps.VARIABLE) + ": tenant ids are"
            + " case-sensitive, so '" + tenant + "' would be another tenant, without " + like + "'s caps; did you mean"
            + " --tenant " + like + "?");
      });
    }
    return tenant;
  }

  /** The tenants {@code CP_TENANTS_FILE} lists in this environment; none when it is unset or unreadable. */
  private static java.util.Set<String> configured(Map<String, String> env) {
    try {
      return TenantCaps.fromEnv(env).tenantIds();
    } catch (ProviderConfigException e) {
      // The worker that reads the file says what is wrong with it; this check only compares ids.
      return java.util.Set.of();
    }
  }
}
