package cp.cli;

import cp.ledger.ChainKey;
import cp.ledger.ExpectedHead;
import cp.ledger.HeadCheckpoint;
import cp.ledger.JsonlStore;
import cp.ledger.Ledger;
import cp.ledger.LedgerDatabase;
import cp.ledger.LedgerStream;
import cp.ledger.PostgresStore;
import cp.ledger.StreamId;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerQuery;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.ledger.PlaneVerification;
import cp.ledger.Tier;
import cp.ledger.VerifyResult;
import cp.model.EventType;
import cp.model.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Read, verify and repair the tier ledgers under CP_HOME. */
@Command(name = "ledger", mixinStandardHelpOptions = true, description = "Query, verify or repair the ledgers.",
    subcommands = {LedgerCommand.Query.class, LedgerCommand.Verify.class, LedgerCommand.Repair.class,
        LedgerCommand.Migrate.class, LedgerCommand.Export.class})
final class LedgerCommand extends CliCommand implements Runnable {
  @Override
  public void run() {
    spec.commandLine().usage(out());
  }

  /** The stream named by --tier/--agent-class (an HO2 ledger is an agent class's, ADMIN's by default). */
  static StreamId streamId(String tier, String agentClass) {
    Tier t = Tier.parse(tier);
    return new StreamId(t, t == Tier.HO2 ? PlaneLayout.checkAgentClass(agentClass == null ? "ADMIN"
        : agentClass.toUpperCase(Locale.ROOT)) : null);
  }

  /** The sessions of agent class {@code cls}, from the HOT ledger's SESSION_START entries. */
  static java.util.Set<String> sessionsOf(Ledgers ledgers, String cls) {
    java.util.Set<String> ids = new java.util.HashSet<>();
    ledgers.existing(Tier.HOT, null).ifPresent(hot -> hot.byEventType(EventType.SESSION_START.wire()).forEach(e -> {
      if (cls.equals(e.agentClass()) && e.sessionId() != null) {
        ids.add(e.sessionId());
      }
    }));
    return ids;
  }

  /** Whether the HOT ledger holds any entry of {@code sessionId} (every session starts there). */
  static boolean hasSession(Ledgers ledgers, String sessionId) {
    return ledgers.existing(Tier.HOT, null)
        .map(hot -> !hot.query(new LedgerQuery(null, sessionId, null, 1)).isEmpty()).orElse(false);
  }

  /** The ledger named by --tier/--agent-class, if its file exists. */
  static Optional<LedgerStream> named(Ledgers ledgers, String tier, String agentClass) {
    StreamId id = streamId(tier, agentClass);
    return ledgers.existing(id.tier(), id.agentClass());
  }

  @Command(name = "query", mixinStandardHelpOptions = true, description = "Print ledger entries, oldest first.")
  static final class Query extends MaskedCliCommand implements java.util.concurrent.Callable<Integer> {
    /** Entries printed when --limit is not given. */
    static final int DEFAULT_LIMIT = 20;

    @Option(names = "--tier", required = true, description = "hot, ho3, ho2 or ho1.")
    String tier;

    @Option(names = "--agent-class", description = "For ho2: whose ledger (default ADMIN); other tiers: entries of this class's sessions.")
    String agentClass;

    @Option(names = "--event", description = "Only this event type (e.g. EXCHANGE).")
    String event;

    @Option(names = "--session", description = "Only this session (SES-xxxxxxxx).")
    String session;

    @Option(names = "--limit", defaultValue = "" + DEFAULT_LIMIT, description = "The last N matches (0: all). Default: ${DEFAULT-VALUE}.")
    int limit;

    @Option(names = "--json", description = "One JSON object per line, as stored (secrets masked).")
    boolean json;

    @Override
    public Integer call() {
      if (limit < 0) {
        throw new IllegalArgumentException("--limit must be >= 0, was " + limit);
      }
      if (session != null) {
        checkSessionId("--session", session);
      }
      try (Ledgers ledgers = readLedgers(config())) {
        if (session != null && !hasSession(ledgers, session)) {
          throw new IllegalArgumentException("session " + session + " is not in the ledgers in "
              + ledgers.store().describe() + " (HOT has no entry of it; see 'cpctl sessions')");
        }
        Optional<LedgerStream> l = named(ledgers, tier, agentClass);
        if (l.isEmpty()) {
          if (!json) {
            out().println("no " + tier + " ledger in " + ledgers.store().describe() + " yet");
          }
          return Cpctl.OK;
        }
        String cls = agentClass != null && Tier.parse(tier) != Tier.HO2 ? agentClass.toUpperCase(Locale.ROOT) : null;
        String type = eventType(event);
        // An entry is the class's when it names the class, or belongs to a session of that class (an
        // EXCHANGE, an HO1 work order's entries carry only their session): sessions from HOT's SESSION_STARTs.
        java.util.Set<String> sessionsOfClass = cls == null ? java.util.Set.of() : sessionsOf(ledgers, cls);
        List<LedgerEntry> entries = new ArrayList<>();
        l.get().visitNewestFirst(new LedgerQuery(type, session, null, 0), e -> {
          if (cls == null || cls.equals(e.agentClass()) || sessionsOfClass.contains(e.sessionId())) {
            entries.add(e);
          }
          return limit == 0 || entries.size() < limit;
        });
        Collections.reverse(entries);
        if (entries.isEmpty() && type != null && EventType.fromWire(type).isEmpty()) {
          err().println("cpctl: no entry has event type '" + type + "'; the plane writes " + java.util.Arrays
              .stream(EventType.values()).map(EventType::wire).collect(java.util.stream.Collectors.joining(", ")));
        }
        for (LedgerEntry e : entries) {
          if (json) {
            out().println(Json.write(e.toJson(true)));
          } else {
            String wo = e.workOrderId();
            out().printf("%s  %-10s %-18s %-10s %s%s%s%n", e.timestamp(), e.entryId().length() > 10
                ? e.entryId().substring(0, 10) : e.entryId(), e.eventType(), e.decision(), e.reason(),
                e.sessionId() == null ? "" : "  " + e.sessionId(), wo == null ? "" : "  " + wo);
          }
        }
      }
      return Cpctl.OK;
    }
  }

  /**
   * The event type to match: event types are upper-case, so one the plane writes given in another
   * case is that type; anything else is matched as given (a ledger may hold types of older code).
   */
  static String eventType(String given) {
    if (given == null || given.isBlank()) {
      return null;
    }
    String upper = given.trim().toUpperCase(Locale.ROOT);
    return EventType.fromWire(upper).isPresent() ? upper : given.trim();
  }

  @Command(name = "verify", mixinStandardHelpOptions = true,
      description = "Verify the hash chain of every ledger, the heads each records of the others and the heads given"
          + " with --expect-head, without changing anything (exit 1 and the first bad line on damage or tampering;"
          + " KEY lines: a keyed chain needs CP_LEDGER_HMAC_KEY).")
  static final class Verify extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = ExpectedHead.OPTION, paramLabel = "STREAM=ENTRIES:HASH",
        description = "A head an earlier 'cpctl ledger export' printed (or STREAM=FILE, the file it wrote): the stream"
            + " must still hold at least that many entries, the last of them with that hash. Repeatable; catches a"
            + " stream or a whole store deleted together with every head recorded of it.")
    List<String> expectHeads = new ArrayList<>();

    @Override
    public Integer call() {
      List<ExpectedHead> expected = expectHeads.stream().map(ExpectedHead::parse).toList();
      try (Ledgers ledgers = readLedgers(config())) {
        String keyed = config().ledgers().key()
            .map(k -> ", keyed with " + ChainKey.VARIABLE + " key id " + k.id()).orElse("");
        PlaneVerification.Report report = PlaneVerification.run(ledgers.store(), expected, keyed);
        report.lines().forEach(l -> out().println(l.text()));
        return report.ok() ? Cpctl.OK : Cpctl.FAILED;
      }
    }
  }

  @Command(name = "repair", mixinStandardHelpOptions = true,
      description = "Move a broken chain's bad lines (from the first bad one) to a quarantine file and reopen it for"
          + " appends; for a ledger that is intact but missing, shorter or rewritten compared with a head recorded in"
          + " another ledger, record the loss with a LEDGER_REPAIRED entry.")
  static final class Repair extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--tier", required = true, description = "hot, ho3, ho2 or ho1.")
    String tier;

    @Option(names = "--agent-class", description = "For ho2: whose ledger (default ADMIN).")
    String agentClass;

    @Override
    public Integer call() {
      try (Ledgers ledgers = openLedgers(config())) {
        StreamId id = streamId(tier, agentClass);
        Tier t = id.tier();
        String cls = id.agentClass();
        Optional<HeadCheckpoint.Finding> loss = ledgers.crossCheck().stream()
            .filter(f -> id.equals(f.stream())).findFirst();
        LedgerStream l = named(ledgers, tier, agentClass).or(() -> loss.map(f -> ledgers.get(t, cls)))
            .orElseThrow(() -> new IllegalArgumentException("there is no " + tier + " ledger under "
                + ledgers.store().describe()));
        var q = l.repair();
        if (loss.isPresent()) {
          // A repair of the ledger itself (a missing .head, say) that records the same loss supersedes the recorded
          // head already; otherwise the loss gets an entry of its own.
          if (!ledgers.crossCheck().stream().filter(f -> id.equals(f.stream())).toList().isEmpty()) {
            l.write(HeadCheckpoint.lossRecord(loss.get()));
          }
          out().println("recorded: " + loss.get().message() + "; a LEDGER_REPAIRED entry records the loss from line "
              + loss.get().firstBadLine() + (q.isPresent() ? "" : " (nothing to quarantine)"));
        } else if (q.isEmpty()) {
          out().println("intact: " + ledgers.store().location(id) + " needs no repair");
        } else if (q.get().startsWith("nothing moved")) {
          out().println("repaired: " + ledgers.store().location(id) + "; " + q.get() + " and a LEDGER_REPAIRED entry"
              + " records it");
        } else {
          String kept = q.get().startsWith("/") ? ledgers.layout().relative(java.nio.file.Path.of(q.get())) : q.get();
          out().println("repaired: " + ledgers.store().location(id) + "; the bad lines are kept in "
              + kept + " and a LEDGER_REPAIRED entry records it");
        }
      }
      return Cpctl.OK;
    }
  }

  /** Entries copied per transaction by {@code migrate}: big enough to be quick, small enough to hold in memory. */
  static final int MIGRATE_BATCH = 500;

  @Command(name = "migrate", mixinStandardHelpOptions = true,
      description = "Copy the JSONL ledgers under CP_HOME into the PostgreSQL database of CP_LEDGER_URL, keeping every"
          + " entry's id, time and hash (entries already there are skipped, so running it twice copies nothing twice).")
  static final class Migrate extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
      var cfg = config();
      LedgerDatabase db = cfg.ledgers().database();
      if (db == null) {
        throw new IllegalArgumentException(LedgerDatabase.URL_VARIABLE + " is not set: 'cpctl ledger migrate' copies"
            + " the JSONL ledgers under CP_HOME into that PostgreSQL database");
      }
      int failures = 0;
      PlaneLayout layout = new PlaneLayout(cfg.home());
      try (JsonlStore files = new JsonlStore(layout, cfg.ledgers().withDatabase(null));
          PostgresStore pg = PostgresStore.open(db, cfg.ledgers())) {
        List<StreamId> streams = files.streams();
        if (streams.isEmpty()) {
          out().println("no JSONL ledgers under " + layout.root() + " (nothing to migrate)");
          return Cpctl.OK;
        }
        for (StreamId id : streams) {
          LedgerStream source = files.open(id);
          VerifyResult v = source.verify();
          if (!v.ok()) {
            failures++;
            out().printf("FAIL  %-12s %s  line %d: %s (not copied; run 'cpctl ledger repair' first)%n", id.label(),
                files.location(id), v.firstBadLine(), v.reason());
            continue;
          }
          List<LedgerEntry> all = source.readAll();
          long copied = 0;
          for (int from = 0; from < all.size(); from += MIGRATE_BATCH) {
            copied += pg.open(id).importEntries(all.subList(from, Math.min(all.size(), from + MIGRATE_BATCH)));
          }
          out().printf("OK    %-12s %s -> %s  (%d entries copied, %d already there)%n", id.label(), files.location(id),
              pg.location(id), copied, all.size() - copied);
        }
      }
      return failures == 0 ? Cpctl.OK : Cpctl.FAILED;
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Write one ledger stream of the configured store (PostgreSQL with CP_LEDGER_URL) to a JSONL file"
          + " that 'cpctl ledger verify' and the JSONL store read: the same lines, the same hashes.")
  static final class Export extends CliCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--tier", required = true, description = "hot, ho3, ho2 or ho1.")
    String tier;

    @Option(names = "--agent-class", description = "For ho2: whose ledger (default ADMIN).")
    String agentClass;

    @Option(names = "--out", required = true, description = "The JSONL file to write (must not exist).")
    java.nio.file.Path outFile;

    @Override
    public Integer call() throws java.io.IOException {
      if (java.nio.file.Files.exists(outFile)) {
        throw new IllegalArgumentException("--out " + outFile + " exists; export writes a new file only");
      }
      // Export reads the ledgers (it writes only --out): they are opened read-only.
      try (Ledgers ledgers = readLedgers(config())) {
        Optional<LedgerStream> l = named(ledgers, tier, agentClass);
        if (l.isEmpty()) {
          throw new IllegalArgumentException("there is no " + tier + " ledger in " + ledgers.store().describe());
        }
        java.nio.file.Path parent = outFile.toAbsolutePath().getParent();
        if (parent != null) {
          java.nio.file.Files.createDirectories(parent);
        }
        long n = 0;
        String last = null;
        try (var w = java.nio.file.Files.newBufferedWriter(outFile, java.nio.charset.StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE_NEW)) {
          for (LedgerEntry e : l.get().readAll()) {
            w.write(Json.write(e.toJson(true)));
            w.write('\n');
            n++;
            last = e.hash();
          }
        }
        VerifyResult v = Ledger.verifyFile(outFile, cp.ledger.LedgerOptions.of(cp.ledger.Durability.FSYNC_EACH)
            .withKey(config().ledgers().key().orElse(null)), false);
        if (!v.ok()) {
          out().println("FAIL  wrote " + n + " entries to " + outFile + " but it does not verify: line "
              + v.firstBadLine() + ": " + v.reason());
          return Cpctl.FAILED;
        }
        StreamId id = streamId(tier, agentClass);
        out().println("exported " + n + " entries of " + l.get().location() + " to " + outFile + " (verified)");
        if (last != null) {
          out().println("head " + ExpectedHead.format(id, n, last) + "  (keep it: 'cpctl ledger verify "
              + ExpectedHead.OPTION + " " + ExpectedHead.format(id, n, last) + "' proves later that these entries are"
              + " still there)");
        }
      }
      return Cpctl.OK;
    }
  }
}
