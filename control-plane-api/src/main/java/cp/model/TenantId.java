package cp.model;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whose session it is, for spend (issue 23): the tenant whose daily and monthly dollar caps its
 * calls count against. A session started without one belongs to {@link #DEFAULT}.
 */
public final class TenantId {
  /** The tenant of a session started without one. */
  public static final String DEFAULT = "default";
  /**
   * Letters, digits, {@code _} and {@code -}, up to 64, starting with a letter or digit: safe as a
   * search attribute value, a metric label, a database key and a file name.
   */
  public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private TenantId() {}

  /** {@code tenant}, or {@link #DEFAULT} when it is null or blank. */
  public static String orDefault(String tenant) {
    return tenant == null || tenant.isBlank() ? DEFAULT : tenant;
  }

  /** What is wrong with {@code tenant} as a tenant id, or empty when it is one. */
  public static Optional<String> problem(String tenant) {
    if (tenant == null || !PATTERN.matcher(tenant).matches()) {
      return Optional.of("tenant '" + tenant + "' is not a tenant id: 1 to 64 letters, digits, '_' and '-', starting"
          + " with a letter or digit (e.g. acme)");
    }
    return Optional.empty();
  }
}
