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

  private SpendReport(By by, Optional<String> tenant, Optional<LocalDate> since, List<Group> groups) {
    this.by = by;
    this.tenant = tenant;
    this.since = since;
    this.groups = List.copyOf(groups);
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
      String day = e.timestamp() == null || e.timestamp().length() < 10 ? "" : e.timestamp().substring(0, 10);
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
      JsonNode usd = e.meta(ExchangeRecords.COST_USD);
      s[0] += usd != null ? usd.asDouble() : e.metaNumber("cost");
      s[1] += 1;
      JsonNode unknown = e.meta(ExchangeRecords.COST_UNKNOWN);
      s[2] += unknown != null && unknown.asBoolean() ? 1 : 0;
    }
    return new SpendReport(by, tenant, since, sums.entrySet().stream()
        .map(x -> new Group(x.getKey(), x.getValue()[0], (int) x.getValue()[1], (int) x.getValue()[2])).toList());
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

  /** {@code {"by": …, "tenant": …, "since": …, "groups": [{"group", "spent_usd", "calls", "cost_unknown_calls"}], "total_usd"}}. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object().put("by", by.name().toLowerCase(Locale.ROOT));
    tenant.ifPresent(t -> o.put("tenant", t));
    since.ifPresent(d -> o.put("since", d.toString()));
    ArrayNode a = o.putArray("groups");
    for (Group g : groups) {
      a.add(Json.object().put("group", g.group()).put("spent_usd", g.spentUsd()).put("calls", g.calls())
          .put("cost_unknown_calls", g.costUnknownCalls()));
    }
    o.put("total_usd", totalUsd());
    return o;
  }

  /** A table for people: one line a group, then the total. */
  public List<String> lines() {
    String head = by.name().toLowerCase(Locale.ROOT);
    List<String> out = new java.util.ArrayList<>();
    out.add(String.format(Locale.ROOT, "%-32s %14s %8s %s", head, "spent_usd", "calls", "cost_unknown"));
    for (Group g : groups) {
      out.add(String.format(Locale.ROOT, "%-32s %14.6f %8d %d", g.group(), g.spentUsd(), g.calls(),
          g.costUnknownCalls()));
    }
    out.add(String.format(Locale.ROOT, "%-32s %14.6f", "total", totalUsd()));
    return out;
  }
}
