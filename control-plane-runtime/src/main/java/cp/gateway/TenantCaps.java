package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The tenants' dollar caps per UTC day and per month (issue 23), from {@code CP_TENANTS_FILE}:
 * {@code {"tenants": {"acme": {"daily_usd": 5.0, "monthly_usd": 100.0}}, "default": {"daily_usd": 1.0}}}.
 * A tenant not listed takes the {@code default} entry; with neither, it has no cap.
 */
public final class TenantCaps {
  public static final String VARIABLE = cp.model.UsdBudgets.TENANTS_FILE;
  static final String DAILY = "daily_usd";
  static final String MONTHLY = "monthly_usd";
  private static final Set<String> TOP = Set.of("tenants", "default");
  /** No caps at all (no CP_TENANTS_FILE). */
  public static final TenantCaps NONE = new TenantCaps(Map.of(), Optional.empty());

  /** One tenant's caps; each empty when not set. */
  public record Caps(Optional<Double> dailyUsd, Optional<Double> monthlyUsd) {
    public boolean any() {
      return dailyUsd.isPresent() || monthlyUsd.isPresent();
    }
  }

  private final Map<String, Caps> tenants;
  private final Optional<Caps> fallback;

  private TenantCaps(Map<String, Caps> tenants, Optional<Caps> fallback) {
    this.tenants = Map.copyOf(tenants);
    this.fallback = fallback;
  }

  /** The caps of {@code tenant}: its own entry, else {@code default}'s, else none. */
  public Optional<Caps> of(String tenant) {
    Caps own = tenants.get(tenant);
    return own != null ? Optional.of(own).filter(Caps::any) : fallback.filter(Caps::any);
  }

  /** The tenant ids the file lists under {@code tenants}, as written (ids are case-sensitive). */
  public Set<String> tenantIds() {
    return tenants.keySet();
  }

  /** Whether any tenant has a cap. */
  public boolean any() {
    return fallback.isPresent() || !tenants.isEmpty();
  }

  /**
   * {@code CP_TENANTS_FILE}'s caps, or {@link #NONE} when it is unset.
   *
   * @throws ProviderConfigException naming the variable, and the key that is wrong
   */
  public static TenantCaps fromEnv(Map<String, String> env) {
    String file = env.get(VARIABLE);
    if (file == null || file.isBlank()) {
      return NONE;
    }
    Path p = Path.of(file.trim());
    JsonNode root = ConfigFiles.read(VARIABLE, p);
    try {
      return parse(root, VARIABLE + "=" + p);
    } catch (IllegalArgumentException e) {
      throw new ProviderConfigException(VARIABLE, e.getMessage());
    }
  }

  static TenantCaps parse(JsonNode root, String where) {
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(where + ": expected {\"tenants\": {\"acme\": {\"" + DAILY + "\": 5.0, \""
          + MONTHLY + "\": 100.0}}, \"default\": {\"" + DAILY + "\": 1.0}}");
    }
    root.fieldNames().forEachRemaining(k -> {
      if (!TOP.contains(k)) {
        throw new IllegalArgumentException(where + ": unknown key '" + k + "' (the keys are tenants and default)");
      }
    });
    Map<String, Caps> tenants = new LinkedHashMap<>();
    JsonNode t = root.get("tenants");
    if (t != null && !t.isNull()) {
      if (!t.isObject()) {
        throw new IllegalArgumentException(where + ": tenants must be an object of caps by tenant id");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = t.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        cp.model.TenantId.problem(e.getKey()).ifPresent(why -> {
          throw new IllegalArgumentException(where + ": tenants: " + why);
        });
        tenants.put(e.getKey(), caps(e.getValue(), where + ": tenants." + e.getKey()));
      }
    }
    JsonNode d = root.get("default");
    Optional<Caps> fallback = d == null || d.isNull() ? Optional.empty() : Optional.of(caps(d, where + ": default"));
    return new TenantCaps(tenants, fallback);
  }

  private static Caps caps(JsonNode n, String where) {
    if (!n.isObject()) {
      throw new IllegalArgumentException(where + ": expected an object with " + DAILY + " and/or " + MONTHLY);
    }
    n.fieldNames().forEachRemaining(k -> {
      if (!k.equals(DAILY) && !k.equals(MONTHLY)) {
        throw new IllegalArgumentException(where + ": unknown key '" + k + "' (the keys are " + DAILY + " and "
            + MONTHLY + ")");
      }
    });
    return new Caps(usd(n, DAILY, where), usd(n, MONTHLY, where));
  }

  private static Optional<Double> usd(JsonNode n, String key, String where) {
    JsonNode v = n.get(key);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isNumber() || !(v.asDouble() > 0) || !Double.isFinite(v.asDouble())) {
      throw new IllegalArgumentException(where + ": " + key + " must be a number of US dollars > 0, was " + v);
    }
    return Optional.of(v.asDouble());
  }
}
