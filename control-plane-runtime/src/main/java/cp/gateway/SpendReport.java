package cp.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.TenantId;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the plane's model calls cost, grouped (issue 23, {@code cpctl spend}): read from the HOT
 * ledger's EXCHANGE entries, so the groups add up to the EXCHANGE costs exactly. An EXCHANGE from
 * before issue 23 names no tenant (its tenant is {@code default}); the agent class is its session's
 * (SESSION_START), {@code unknown} for a call outside a session; a call whose model had no price counts in {@code cost_unknown_calls}.
 *
 * <p>Beside what was spent, what the tenant counters hold reserved and unsettled per tenant (calls
 * in flight, {@link #withHeld}): not yet in any EXCHANGE, so apart from the spent figures.
 */
public final class SpendReport {
  private static final String SESSION_START = cp.model.EventType.SESSION_START.wire();

  /** How the calls are grouped. */
  public enum By {
    TENANT, AGENT, MODEL, DAY;

    /** {@code tenant}, {@code agent}, {@code model} or {@code day}, any case. */
    public static By parse(String s) {
      try {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new IllegalArgumentException("--by must be tenant, agent, model or day, was '" + s + "'");
      }
    }
  }

  /** One group's spend. */
  public record Group(String group, double spentUsd, int calls, int costUnknownCalls) {}

  private final By by;
  private final Optional<String> tenant;
  private final Optional<LocalDate> since;
  private final List<Group> groups;
  /** What the tenant counters hold unsettled, per tenant (only the asked tenant's with --tenant). */
  private final Map<String, Double> held;

  private SpendReport(By by, Optional<String> tenant, Optional<LocalDate> since, List<Group> groups,
      Map<String, Double> held) {
    this.by = by;
    this.tenant = tenant;
    this.since = since;
    this.groups = List.copyOf(groups);
    this.held = Map.copyOf(held);
  }

  /** This report with what the tenant counters hold reserved and unsettled, per tenant ({@link TenantCounters#heldByTenant}). */
  public SpendReport withHeld(Map<String, Double> heldByTenant) {
    Map<String, Double> h = new TreeMap<>();
    heldByTenant.forEach((t, usd) -> {
      if (usd > 0 && (tenant.isEmpty() || tenant.get().equals(t))) {
        h.put(t, usd);
      }
    });
    List<Group> g = new java.util.ArrayList<>(groups);
    if (by == By.TENANT) {
      // A tenant whose only calls are in flight still has a row: what it holds.
      h.keySet().stream().filter(t -> groups.stream().noneMatch(x -> x.group().equals(t)))
          .forEach(t -> g.add(new Group(t, 0, 0, 0)));
      g.sort(java.util.Comparator.comparing(Group::group));
    }
    return new SpendReport(by, tenant, since, g, h);
  }

  /** What is held reserved and unsettled in all (the report's tenant's alone with --tenant). */
  public double reservedUsd() {
    return held.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** The report over {@code hot}'s entries: EXCHANGEs of {@code tenant} (all when empty) on or after {@code since} (UTC). */
  public static SpendReport of(List<LedgerEntry> hot, By by, Optional<String> tenant, Optional<LocalDate> since) {
    Map<String, double[]> sums = new TreeMap<>();
    Map<String, String> classOf = new java.util.HashMap<>();
    for (LedgerEntry e : hot) {
      if (SESSION_START.equals(e.eventType()) && e.metaText("session_id") != null) {
        classOf.put(e.metaText("session_id"), e.metaText("agent_class"));
      }
    }
    for (LedgerEntry e : hot) {
      if (!ExchangeRecords.EXCHANGE.equals(e.eventType())) {
        continue;
      }
      String t = TenantId.orDefault(e.metaText(ExchangeRecords.TENANT));
      if (tenant.isPresent() && !tenant.get().equals(t)) {
        continue;
      }
      String day = dayOf(e);
      if (since.isPresent() && day.compareTo(since.get().toString()) < 0) {
        continue;
      }
      String key = switch (by) {
        case TENANT -> t;
        case AGENT -> orUnknown(classOf.get(e.metaText("session_id")));
        case MODEL -> orUnknown(e.metaText("model_id"));
        case DAY -> day;
      };
      double[] s = sums.computeIfAbsent(key, k -> new double[3]);
      s[0] += costOf(e);
      s[1] += 1;
      JsonNode unknown = e.meta(ExchangeRecords.COST_UNKNOWN);
      s[2] += unknown != null && unknown.asBoolean() ? 1 : 0;
    }
    return new SpendReport(by, tenant, since, sums.entrySet().stream()
        .map(x -> new Group(x.getKey(), x.getValue()[0], (int) x.getValue()[1], (int) x.getValue()[2])).toList(),
        Map.of());
  }

  /** An EXCHANGE's UTC day ({@code YYYY-MM-DD} from its timestamp; empty when it has none). */
  static String dayOf(LedgerEntry e) {
    return e.timestamp() == null || e.timestamp().length() < 10 ? "" : e.timestamp().substring(0, 10);
  }

  /** What an EXCHANGE cost in US dollars: its {@code cost_usd}, else (before issue 23) its {@code cost}. */
  static double costOf(LedgerEntry e) {
    JsonNode usd = e.meta(ExchangeRecords.COST_USD);
    return usd != null ? usd.asDouble() : e.metaNumber("cost");
  }

  private static String orUnknown(String s) {
    return s == null || s.isBlank() ? "unknown" : s;
  }

  public List<Group> groups() {
    return groups;
  }

  public double totalUsd() {
    return groups.stream().mapToDouble(Group::spentUsd).sum();
  }

  /**
   * {@code {"by": …, "tenant": …, "since": …, "groups": [{"group", "spent_usd", "calls",
   * "cost_unknown_calls"}], "total_usd", "reserved_usd", "reserved_by_tenant": {…}}}; grouped by
   * tenant, each group also has its {@code reserved_usd}.
   */
  public ObjectNode toJson() {
    ObjectNode o = Json.object().put("by", by.name().toLowerCase(Locale.ROOT));
    tenant.ifPresent(t -> o.put("tenant", t));
    since.ifPresent(d -> o.put("since", d.toString()));
    ArrayNode a = o.putArray("groups");
    for (Group g : groups) {
      ObjectNode row = Json.object().put("group", g.group()).put("spent_usd", g.spentUsd()).put("calls", g.calls())
          .put("cost_unknown_calls", g.costUnknownCalls());
      if (by == By.TENANT) {
        row.put("reserved_usd", held.getOrDefault(g.group(), 0.0));
      }
      a.add(row);
    }
    o.put("total_usd", totalUsd());
    o.put("reserved_usd", reservedUsd());
    ObjectNode byTenant = o.putObject("reserved_by_tenant");
    new TreeMap<>(held).forEach(byTenant::put);
    return o;
  }

  /** A table for people: one line a group, then the total. */
  public List<String> lines() {
    String head = by.name().toLowerCase(Locale.ROOT);
    boolean perTenant = by == By.TENANT;
    List<String> out = new java.util.ArrayList<>();
    out.add(String.format(Locale.ROOT, "%-32s %14s %8s %-12s", head, "spent_usd", "calls", "cost_unknown")
        + (perTenant ? String.format(Locale.ROOT, " %14s", "reserved_usd") : ""));
    for (Group g : groups) {
      out.add(String.format(Locale.ROOT, "%-32s %14.6f %8d %-12d", g.group(), g.spentUsd(), g.calls(),
          g.costUnknownCalls()) + (perTenant ? String.format(Locale.ROOT, " %14.6f", held.getOrDefault(g.group(), 0.0))
          : ""));
    }
    out.add(String.format(Locale.ROOT, "%-32s %14.6f", "total", totalUsd())
        + (perTenant ? String.format(Locale.ROOT, " %8s %-12s %14.6f", "", "", reservedUsd()) : ""));
    if (!perTenant) {
      // Reservations belong to tenants, not to agents, models or days: listed per tenant below.
      new TreeMap<>(held).forEach((t, usd) -> out.add(String.format(Locale.ROOT, "reserved (tenant %s) %14.6f", t,
          usd)));
    }
    return out;
  }
}
