package cp.activities;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AttentionStage;
import cp.contracts.AttentionTemplate;
import cp.contracts.Catalog;
import cp.contracts.StageConfig;
import cp.contracts.StageType;
import cp.faults.FaultHook;
import cp.faults.FaultPoints;
import cp.gateway.TokenEstimate;
import cp.ledger.LedgerStream;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.Ledgers;
import cp.ledger.Tier;
import cp.model.AttentionRequest;
import cp.model.AttentionResult;
import cp.model.EventType;
import cp.model.FailureCode;
import cp.model.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * HO2's attention: a deterministic pipeline, driven by the agent's attention template, that
 * assembles the context a synthesize work order sees.
 *
 * <p>Horizontal scan: the template's ledger_query stages read recent HO2m and HO1m entries and
 * the session's conversation, rebuilt from its EXCHANGE records (the ledger is the session
 * memory: there is no other transcript). Priority probe: the HO3 ledger, which may be empty or
 * absent. The template's budget bounds the number of queries, the time and the context size;
 * its fallbacks decide what a timeout or an empty result means. The assembled text is written
 * to HO2m as ATTENTION_ASSEMBLED, so the workflow carries only its entry id and hash, and the
 * exact context every answer was built from stays on record.
 */
public final class AttentionAssembler {
  /** One event line in the context is cut to this length. */
  static final int MAX_EVENT_CHARS = 300;
  /** Where an EXCHANGE record keeps the text of the prompt's first user message. */
  static final String FIRST_USER_TEXT = ExchangeRecord.FIRST_USER_TEXT;
  /** One conversation message in the context is cut to this length. */
  static final int MAX_MESSAGE_CHARS = 4_000;
  /** The HO1m event a work order's execution ends with; attention shows it as one summary line. */
  static final String WO_COMPLETED = EventType.WO_COMPLETED.wire();

  private final Catalog catalog;
  private final Ledgers ledgers;
  private final Clock clock;
  private final FaultHook faults;

  public AttentionAssembler(Catalog catalog, Ledgers ledgers, Clock clock) {
    this(catalog, ledgers, clock, FaultHook.NONE);
  }

  /** As above, passing the {@code attention} fault point to {@code faults} (a crash test's hook). */
  public AttentionAssembler(Catalog catalog, Ledgers ledgers, Clock clock, FaultHook faults) {
    this.faults = java.util.Objects.requireNonNull(faults, "faults");
    this.catalog = catalog;
    this.ledgers = ledgers;
    this.clock = clock;
  }

  /**
   * What a fragment is, in the order trimming gives them up: a work-order execution line is a
   * summary of entries still in HO1m, an event may explain what went wrong, and a turn is the
   * conversation the answer must continue.
   */
  enum Kind { EXECUTION, EVENT, TURN }

  record Fragment(String section, String timestamp, String text, Kind kind) {
    boolean conversation() {
      return kind == Kind.TURN;
    }
  }

  public AttentionResult assemble(AttentionRequest req, String idempotencyKey) {
    Optional<AttentionResult> done = recorded(req, idempotencyKey);
    if (done.isPresent()) {
      return done.get();
    }
    AttentionTemplate t = catalog.attentionTemplate(req.templateId());
    long deadline = clock.millis() + t.budget().timeoutMs();
    Set<Tier> tiers = selectedTiers(t);
    List<Fragment> fragments = new ArrayList<>();
    int queries = 0;
    int priorTurns = 0;
    boolean partial = false;
    boolean stopQuerying = false;
    long maxTokens = t.budget().maxContextTokens();
    for (AttentionStage stage : t.pipeline()) {
      StageConfig c = stage.config();
      if (stage.type() == StageType.LEDGER_QUERY) {
        // A spent budget ends the querying only: later structuring and halting stages still apply.
        if (stopQuerying) {
          continue;
        }
        if (queries >= t.budget().maxQueries()) {
          partial = true;
          stopQuerying = true;
          continue;
        }
        if (clock.millis() > deadline) {
          if (AttentionTemplate.Fallback.FAIL.equals(t.fallback().onTimeout())) {
            throw FailureCode.ATTENTION_TIMEOUT.failure("attention " + t.templateId() + " timed out after "
                + t.budget().timeoutMs() + " ms and its fallback is 'fail'");
          }
          partial = true;
          stopQuerying = true;
          continue;
        }
        Optional<Tier> tier = c.ledgerTier();
        if (tier.isEmpty() || !tiers.contains(tier.get())) {
          continue;
        }
        queries++;
        Optional<LedgerStream> ledger = ledgers.existing(tier.get(), tier.get() == Tier.HO2 ? req.agentClass() : null);
        if (ledger.isEmpty()) {
          continue;
        }
        if (tier.get() == Tier.HOT && EventType.EXCHANGE.is(c.eventType())) {
          List<Fragment> conv = conversation(ledger.get(), req, stage.stage(), limit(c));
          // A turn's fragments share its timestamp (see conversation).
          priorTurns = (int) conv.stream().map(Fragment::timestamp).distinct().count();
          fragments.addAll(conv);
        } else {
          String session = c.sessionOnly() ? req.sessionId() : null;
          for (LedgerEntry e : ledger.get().query(new LedgerQuery(c.eventType(), session, null, limit(c)))) {
            String section = stage.stage() + " (" + tier.get().wireName() + ")";
            fragments.add(tier.get() == Tier.HO1 && WO_COMPLETED.equals(e.eventType())
                ? new Fragment(section, e.timestamp(), executionLine(ledger.get(), e), Kind.EXECUTION)
                : new Fragment(section, e.timestamp(), eventLine(e), Kind.EVENT));
          }
        }
      } else if (stage.type() == StageType.STRUCTURING) {
        if (c.maxTokens() != null) {
          maxTokens = Math.min(maxTokens, c.maxTokens());
        }
      } else if (stage.type() == StageType.HALTING) {
        int min = c.minFragments() == null ? 0 : c.minFragments();
        if (fragments.size() < min && AttentionTemplate.Fallback.FAIL.equals(t.fallback().onEmpty())) {
          throw FailureCode.ATTENTION_EMPTY.failure("attention " + t.templateId() + " found "
              + fragments.size() + " fragments, fewer than min_fragments " + min);
        }
      }
    }
    boolean trimmed = trim(fragments, maxTokens);
    String text = render(fragments);
    String hash = Json.sha256(text);
    long tokens = TokenEstimate.ofChars(text.length());
    ObjectNode meta = Json.object().put("tier", "ho2").put("session_id", req.sessionId()).put("turn", req.turn())
        .put("template_id", t.templateId()).put("context", text).put("context_hash", hash)
        .put("fragment_count", fragments.size()).put("tokens", tokens).put("queries", queries)
        .put("partial", partial || trimmed).put("prior_turns", priorTurns);
    faults.at(FaultPoints.ATTENTION);
    String id = ledgers.ho2(req.agentClass()).write(LedgerEntry.builder(EventType.ATTENTION_ASSEMBLED.wire())
        .submissionId(t.templateId()).decision(fragments.isEmpty() ? "EMPTY" : "ASSEMBLED")
        .reason(fragments.size() + " fragments, ~" + tokens + " tokens, " + queries + " queries").metadata(meta)
        .idempotencyKey(idempotencyKey).build());
    return new AttentionResult(id, hash, fragments.size(), tokens, queries, partial || trimmed, priorTurns);
  }

  /**
   * The result of an assembly already recorded under {@code idempotencyKey}: a retried activity
   * must describe the context that was written, not a new one (its own first attempt is now
   * part of the HO2m it would scan).
   */
  private Optional<AttentionResult> recorded(AttentionRequest req, String idempotencyKey) {
    if (idempotencyKey == null) {
      return Optional.empty();
    }
    return ledgers.existing(Tier.HO2, req.agentClass())
        .flatMap(ho2 -> ho2.idForKey(idempotencyKey).flatMap(ho2::byId))
        .map(e -> new AttentionResult(e.entryId(), e.metaText("context_hash"), e.meta("fragment_count").asInt(),
            e.meta("tokens").asLong(), e.meta("queries").asInt(), e.meta("partial").asBoolean(),
            e.meta("prior_turns").asInt()));
  }

  private static Set<Tier> selectedTiers(AttentionTemplate t) {
    Set<Tier> out = EnumSet.noneOf(Tier.class);
    for (AttentionStage s : t.stages(StageType.TIER_SELECT)) {
      out.addAll(s.config().selectedTiers());
    }
    return out.isEmpty() ? EnumSet.allOf(Tier.class) : out;
  }

  private static int limit(StageConfig c) {
    return c.maxEntries() == null ? 0 : c.maxEntries();
  }

  /**
   * The session's earlier turns: for each turn, the last successful final answer (synthesize or
   * degraded, not a tool_use round), with the user input taken from that exchange's prompt.
   * The session's exchanges are read newest first and the reading stops once the last
   * {@code maxTurns} turns are found: a session runs one turn at a time, so its exchanges are in
   * turn order, and a turn's last answer is the first one met.
   */
  private List<Fragment> conversation(LedgerStream hot, AttentionRequest req, String section, int maxTurns) {
    Map<Integer, LedgerEntry> lastPerTurn = new LinkedHashMap<>();
    hot.visitNewestFirst(LedgerQuery.session(req.sessionId()).withEventType(ExchangeRecord.EVENT_TYPE), e -> {
      ExchangeRecord x = ExchangeRecord.of(e);
      int turn = x.turn();
      if (x.finalAnswer() && turn > 0 && turn < req.turn()) {
        lastPerTurn.putIfAbsent(turn, e);
      }
      return maxTurns <= 0 || lastPerTurn.size() < maxTurns;
    });
    List<Map.Entry<Integer, LedgerEntry>> turns = new ArrayList<>(lastPerTurn.entrySet());
    turns.sort(Map.Entry.comparingByKey());
    if (maxTurns > 0 && turns.size() > maxTurns) {
      turns = turns.subList(turns.size() - maxTurns, turns.size());
    }
    List<Fragment> out = new ArrayList<>();
    for (Map.Entry<Integer, LedgerEntry> t : turns) {
      LedgerEntry e = t.getValue();
      String key = String.format("%06d", t.getKey());
      out.add(new Fragment(section, key, "[turn " + t.getKey() + "] User: " + cut(userInput(e), MAX_MESSAGE_CHARS),
          Kind.TURN));
      out.add(new Fragment(section, key, "[turn " + t.getKey() + "] Assistant: " + cut(answerText(e), MAX_MESSAGE_CHARS),
          Kind.TURN));
    }
    return out;
  }

  private static String userInput(LedgerEntry exchange) {
    return ExchangeRecord.of(exchange).userInput();
  }

  private static String answerText(LedgerEntry exchange) {
    String text = ExchangeRecord.of(exchange).answerText();
    return text == null ? "" : text;
  }

  private static String eventLine(LedgerEntry e) {
    String wo = e.workOrderId();
    return cut("- " + e.timestamp() + " " + e.eventType() + " " + e.decision() + ": " + e.reason()
        + (wo == null ? "" : " (" + wo + ")"), MAX_EVENT_CHARS);
  }

  /**
   * One work order's execution, compactly: its id, type and contract, the tools it called (from
   * its TOOL_CALL entries, by name and count) and what it cost. Never its output or its tools'
   * results: those are transcripts, and the answer's words are already in the conversation.
   */
  private static String executionLine(LedgerStream ho1, LedgerEntry completed) {
    String wo = completed.workOrderId();
    Map<String, Integer> tools = new LinkedHashMap<>();
    if (wo != null) {
      for (LedgerEntry call : ho1.query(LedgerQuery.workOrder(wo).withEventType(EventType.TOOL_CALL.wire()))) {
        tools.merge(String.valueOf(call.metaText("tool_id")), 1, Integer::sum);
      }
    }
    StringBuilder sb = new StringBuilder("- ").append(completed.timestamp()).append(' ').append(WO_COMPLETED)
        .append(' ').append(wo == null ? "(no work order id)" : wo);
    String type = completed.metaText("wo_type");
    if (type != null) {
      sb.append(' ').append(type);
    }
    String contract = completed.metaText("contract_id");
    if (contract != null) {
      sb.append(" (").append(contract).append(')');
    }
    sb.append(": ");
    if (tools.isEmpty()) {
      sb.append("no tools");
    } else {
      sb.append("tools ");
      String sep = "";
      for (Map.Entry<String, Integer> t : tools.entrySet()) {
        sb.append(sep).append(t.getKey()).append(t.getValue() > 1 ? " x" + t.getValue() : "");
        sep = ", ";
      }
    }
    JsonNode cost = completed.meta("cost");
    if (cost != null && cost.isObject()) {
      int calls = cost.path("llm_calls").asInt();
      sb.append("; ").append(calls).append(calls == 1 ? " LLM call, " : " LLM calls, ")
          .append(cost.path("input_tokens").asLong()).append(" in / ").append(cost.path("output_tokens").asLong())
          .append(" out tokens, $").append(String.format(Locale.ROOT, "%.4f", cost.path("cost").asDouble()));
    }
    return cut(sb.toString(), MAX_EVENT_CHARS);
  }

  /**
   * Keeps the context within budget: drops the work-order execution lines first (oldest first),
   * then the oldest events, then the oldest turns, a
   * turn whole (its user message and its answer together: half a turn would misquote the
   * conversation). The budget is measured on the rendered text, section headings included, so
   * the recorded {@code tokens} never exceed it.
   */
  private static boolean trim(List<Fragment> fragments, long maxTokens) {
    if (maxTokens <= 0) {
      return false;
    }
    // The length of render(fragments), kept up to date as fragments go instead of rendering again.
    Map<String, Integer> perSection = new LinkedHashMap<>();
    long chars = 0;
    for (Fragment f : fragments) {
      if (perSection.merge(f.section(), 1, Integer::sum) == 1) {
        chars += headingLength(f.section());
      }
      chars += f.text().length() + 1;
    }
    boolean trimmed = false;
    while (TokenEstimate.ofChars(chars) > maxTokens && !fragments.isEmpty()) {
      Fragment victim = fragments.stream()
          .min(Comparator.comparing(Fragment::kind)
              .thenComparing(Fragment::timestamp, Comparator.nullsFirst(Comparator.naturalOrder())))
          .orElseThrow();
      List<Fragment> dropped = victim.conversation()
          ? fragments.stream().filter(f -> f.conversation() && f.section().equals(victim.section())
              && Objects.equals(f.timestamp(), victim.timestamp())).toList()
          : List.of(victim);
      for (Fragment f : dropped) {
        fragments.remove(f);
        chars -= f.text().length() + 1;
        if (perSection.merge(f.section(), -1, Integer::sum) == 0) {
          chars -= headingLength(f.section());
        }
      }
      trimmed = true;
    }
    return trimmed;
  }

  /** The length of a section's heading in {@link #render}. */
  private static int headingLength(String section) {
    return "## ".length() + section.length() + 1;
  }

  /** Sections in pipeline order; within a section, chronological. */
  private static String render(List<Fragment> fragments) {
    Map<String, List<Fragment>> bySection = new LinkedHashMap<>();
    for (Fragment f : fragments) {
      bySection.computeIfAbsent(f.section(), k -> new ArrayList<>()).add(f);
    }
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, List<Fragment>> s : bySection.entrySet()) {
      sb.append("## ").append(s.getKey()).append('\n');
      s.getValue().stream()
          .sorted(Comparator.comparing(Fragment::timestamp, Comparator.nullsFirst(Comparator.naturalOrder())))
          .forEach(f -> sb.append(f.text()).append('\n'));
    }
    return sb.toString();
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "…";
  }
}
