package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.LedgerScope;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.PlaneLayout;
import cp.ledger.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code query_ledger {tier, event_type?, session_id?, agent_class?, max_entries?}}: the newest
 * matching entries of one tier's ledger, one compact JSON line each.
 *
 * <p>For HO2, {@code agent_class} picks whose ledger to read and defaults to the caller's own;
 * for the other tiers it filters entries by {@code metadata.agent_class} or by the class's
 * {@code agent_id}. The ledger file must pass the agent's {@link PathPolicy} like any file read:
 * RESIDENT cannot read HOT. A ledger file that does not exist yet is an empty tier, not an error.
 *
 * <p>Sessions: an agent whose {@code permissions.ledger_scope} is {@code session} (the default;
 * RESIDENT) reads only entries whose {@code metadata.session_id} is the calling session's. Its
 * {@code session_id} argument may name that session or be left out; another session is refused
 * ({@link ToolErrorCodes#OTHER_SESSION}), and a call that belongs to no session reads nothing.
 * Entries without a session id (a LEDGER_REPAIRED, plane-wide events) belong to no session, so
 * such an agent does not see them either. With {@code ledger_scope: all} (ADMIN) every entry of
 * the permitted ledgers is readable and {@code session_id} is only a filter.
 */
public final class QueryLedgerTool implements Tool {
  public static final String ID = "query_ledger";
  /** Used when the agent's schema gives no default. */
  public static final int DEFAULT_MAX_ENTRIES = 10;
  /** Hard ceiling whatever the schema says: a chat answer, not an export. */
  public static final int MAX_ENTRIES = 100;
  /** Output stops before this many characters (HO1 cuts tool results at 32,000). */
  public static final int MAX_OUTPUT_CHARS = 24_000;

  private final Catalog catalog;

  public QueryLedgerTool(Catalog catalog) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    Tier tier;
    try {
      tier = Tier.parse(args.path("tier").asText(""));
    } catch (IllegalArgumentException e) {
      return ToolResult.refused(ToolErrorCodes.INVALID_ARGUMENTS, e.getMessage());
    }
    String eventType = text(args, "event_type");
    String sessionId = text(args, "session_id");
    String agentClass = text(args, "agent_class");
    if (agentClass != null) {
      agentClass = agentClass.toUpperCase(Locale.ROOT);
      if (!PlaneLayout.AGENT_CLASS.matcher(agentClass).matches()) {
        return ToolResult.refused(ToolErrorCodes.INVALID_ARGUMENTS, "agent_class '"
            + BoundedText.quote(agentClass, ToolDispatcher.MAX_QUOTED_CHARS)
            + "' is not an agent class: use upper-case letters, digits and _ (e.g. ADMIN)");
      }
    }
    if (ctx.agent().permissions().ledgerScope() == LedgerScope.SESSION) {
      Optional<ToolResult> refused = checkOwnSession(ctx, sessionId);
      if (refused.isPresent()) {
        return refused.get();
      }
      sessionId = ctx.sessionId();
    }
    int max = Math.max(1, Math.min(MAX_ENTRIES, args.path("max_entries").asInt(DEFAULT_MAX_ENTRIES)));
    String ledgerClass = tier == Tier.HO2 ? (agentClass != null ? agentClass : ctx.agentClass()) : null;
    String rel = ctx.layout().relative(ctx.layout().ledgerPath(tier, ledgerClass));
    ctx.paths().resolveForRead(rel);
    Optional<LedgerStream> ledger = ctx.ledgers().existing(tier, ledgerClass);
    String filters = describe(eventType, sessionId, tier == Tier.HO2 ? null : agentClass);
    if (ledger.isEmpty()) {
      return ToolResult.ok("no entries: the " + tier + " ledger " + rel + " does not exist yet (nothing recorded)");
    }
    LedgerQuery q = new LedgerQuery(eventType, sessionId, null, 0);
    List<LedgerEntry> newestFirst = tier == Tier.HO2 || agentClass == null
        ? newestFirst(ledger.get().query(q.withLimit(max)), max)
        : filtered(ledger.get(), q, ofClass(agentClass), max);
    if (newestFirst.isEmpty()) {
      return ToolResult.ok("no entries in the " + tier + " ledger " + rel + filters);
    }
    return ToolResult.ok(render(newestFirst));
  }

  /** A refusal when a session-scoped agent asks for another session's entries, or has no session. */
  private static Optional<ToolResult> checkOwnSession(ToolContext ctx, String requested) {
    String own = ctx.sessionId();
    String scope = "agent " + ctx.agentClass() + " may only read its own session's ledger entries "
        + "(permissions.ledger_scope is '" + LedgerScope.SESSION.wireName() + "')";
    if (own == null) {
      return Optional.of(ToolResult.refused(ToolErrorCodes.OTHER_SESSION, scope + ", and this call belongs to no "
          + "session, so there is nothing it may read"));
    }
    if (requested != null && !requested.equals(own)) {
      return Optional.of(ToolResult.refused(ToolErrorCodes.OTHER_SESSION, scope + "; session_id '"
          + BoundedText.quote(requested, ToolDispatcher.MAX_QUOTED_CHARS) + "' is not this session (" + own
          + "). Leave session_id out to read this session's entries"));
    }
    return Optional.empty();
  }

  /** The newest {@code max} entries that pass the filter, newest first; reads back from the end and stops there. */
  private static List<LedgerEntry> filtered(LedgerStream ledger, LedgerQuery q, Predicate<LedgerEntry> keep, int max) {
    List<LedgerEntry> kept = new ArrayList<>();
    ledger.visitNewestFirst(q, e -> {
      if (keep.test(e)) {
        kept.add(e);
      }
      return kept.size() < max;
    });
    return kept;
  }

  private Predicate<LedgerEntry> ofClass(String agentClass) {
    String agentId = catalog.agents().stream().filter(a -> a.agentClass().equals(agentClass))
        .map(AgentConfig::agentId).findFirst().orElse(null);
    return e -> agentClass.equalsIgnoreCase(e.metaText("agent_class"))
        || (agentId != null && agentId.equals(e.metaText("agent_id")));
  }

  /** The last {@code max} of entries in file order, newest first. */
  private static List<LedgerEntry> newestFirst(List<LedgerEntry> fileOrder, int max) {
    List<LedgerEntry> out = new ArrayList<>(fileOrder.subList(Math.max(0, fileOrder.size() - max), fileOrder.size()));
    Collections.reverse(out);
    return out;
  }

  private static String render(List<LedgerEntry> entries) {
    StringBuilder sb = new StringBuilder();
    int shown = 0;
    for (LedgerEntry e : entries) {
      String line = CompactEntry.line(e);
      if (sb.length() + line.length() + 1 > MAX_OUTPUT_CHARS) {
        break;
      }
      sb.append(line).append('\n');
      shown++;
    }
    if (shown < entries.size()) {
      sb.append("[").append(entries.size() - shown).append(" more matching entries not shown: the output limit is ")
          .append(MAX_OUTPUT_CHARS).append(" characters; ask for fewer with max_entries or filter by event_type "
              + "or session_id]");
    }
    return sb.toString().stripTrailing();
  }

  private static String describe(String eventType, String sessionId, String agentClass) {
    List<String> parts = new ArrayList<>();
    if (eventType != null) {
      parts.add("event_type=" + BoundedText.quote(eventType, ToolDispatcher.MAX_QUOTED_CHARS));
    }
    if (sessionId != null) {
      parts.add("session_id=" + BoundedText.quote(sessionId, ToolDispatcher.MAX_QUOTED_CHARS));
    }
    if (agentClass != null) {
      parts.add("agent_class=" + agentClass);
    }
    return parts.isEmpty() ? "" : " matching " + String.join(", ", parts);
  }

  private static String text(JsonNode args, String field) {
    JsonNode v = args.get(field);
    return v == null || !v.isTextual() || v.asText().isBlank() ? null : v.asText();
  }
}
