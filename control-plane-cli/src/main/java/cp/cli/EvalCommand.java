package cp.cli;

import cp.eval.CaseVerdict;
import cp.eval.EvalSuite;
import cp.eval.SessionTurns;
import cp.eval.SuiteFiles;
import cp.eval.SuiteFreezer;
import cp.eval.SuiteVerifier;
import cp.ledger.Ledgers;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Evals from the record (issue 25): freeze recorded turns into a suite, verify a suite against the ledgers. */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Regression suites frozen from the ledgers: freeze, verify, run.",
    subcommands = {EvalCommand.Freeze.class, EvalCommand.Verify.class, EvalRunCommand.class})
final class EvalCommand extends CliCommand implements Runnable {
  @Override
  public void run() {
    spec.commandLine().usage(out());
  }

  /** {@code cpctl eval freeze}: one case per recorded turn, written to a suite file. */
  @Command(name = "freeze", mixinStandardHelpOptions = true,
      description = "Write a suite of the turns of one session (--session) or of the newest sessions of an agent"
          + " class (--agent): JSON when --out ends in .json, YAML otherwise.")
  static final class Freeze extends CliCommand implements Callable<Integer> {
    /** Sessions sampled when --limit is not given: a suite small enough to read, large enough to matter. */
    static final int DEFAULT_LIMIT = 20;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
      @Option(names = "--session", paramLabel = "SES-…", description = "The session whose turns to freeze.")
      String session;

      @Option(names = "--agent", paramLabel = "CLASS", description = "Sample the newest sessions of this agent class.")
      String agent;
    }

    @Option(names = "--turns", split = ",", paramLabel = "N", description = "Only these turns of --session (e.g. 1,3).")
    List<Integer> turns;

    @Option(names = "--since", paramLabel = "DATE", description = "With --agent: sessions started at or after this"
        + " date (2026-11-01, UTC) or instant (2026-11-01T09:00:00Z).")
    String since;

    @Option(names = "--limit", paramLabel = "N",
        description = "With --agent: the newest N sessions. Default: " + DEFAULT_LIMIT + ".")
    Integer limit;

    /** The override of the chain check: the flag's name says what the suite then is. */
    static final String FROM_UNVERIFIED = "--from-unverified-ledger";

    @Option(names = FROM_UNVERIFIED, description = "Freeze even when the ledgers' hash chain does not prove the"
        + " entries the cases cite (an edited or damaged ledger); the suite records that, and why.")
    boolean fromUnverified;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The suite file to write (an"
        + " existing file only with --force).")
    Path out;

    @Option(names = "--force", description = "Replace --out if it exists (its edited expectations are lost).")
    boolean force;

    @Override
    public Integer call() {
      if (source.session == null && turns != null) {
        throw new IllegalArgumentException("--turns goes with --session, not --agent");
      }
      if (source.session != null && since != null) {
        throw new IllegalArgumentException("--since goes with --agent, not --session");
      }
      if (source.session != null && limit != null) {
        throw new IllegalArgumentException("--limit goes with --agent (how many sessions), not --session; pick turns"
            + " of the session with --turns");
      }
      int limit = this.limit == null ? DEFAULT_LIMIT : this.limit;
      if (limit < 1) {
        throw new IllegalArgumentException("--limit " + limit + " must be 1 or more");
      }
      if (turns != null && turns.stream().anyMatch(t -> t < 1)) {
        throw new IllegalArgumentException("--turns " + turns + ": turns are numbered from 1");
      }
      if (!force && java.nio.file.Files.exists(out)) {
        throw new IllegalArgumentException("--out " + out + " exists (a suite whose expectations may have been"
            + " edited); pass --force to replace it, or choose another file");
      }
      SuiteFiles.checkWritable(out);
      try (Ledgers ledgers = readLedgers(config())) {
        SuiteFreezer freezer = new SuiteFreezer(new SessionTurns(ledgers), Clock.systemUTC());
        EvalSuite suite = source.session != null ? freezer.session(source.session, turns)
            : freezer.agent(source.agent.toUpperCase(Locale.ROOT), since == null ? Instant.EPOCH : instant(since), limit);
        List<String> unproven = unproven(ledgers, suite);
        if (!unproven.isEmpty()) {
          unproven.forEach(p -> err().println("cpctl: " + p));
          if (!fromUnverified) {
            err().println("cpctl: eval freeze refused: the ledgers' hash chain does not prove " + unproven.size()
                + " cited entr" + (unproven.size() == 1 ? "y" : "ies") + " (above; 'cpctl ledger verify' names the"
                + " damage); nothing was written. " + FROM_UNVERIFIED + " freezes anyway and records it in the suite");
            return Cpctl.FAILED;
          }
          err().println("cpctl: warning: freezing from an unverified ledger (" + FROM_UNVERIFIED + "); the suite"
              + " records it under frozen_from_unverified_ledger");
          suite = suite.frozenFromUnverified(unproven);
        }
        SuiteFiles.write(suite, out);
        long sessions = suite.cases().stream().map(c -> c.input().sessionId()).distinct().count();
        out().println("froze " + suite.cases().size() + " case(s) from " + sessions + " session(s) into " + out
            + " (" + (SuiteFiles.isJson(out) ? "JSON" : "YAML") + ")");
        long later = suite.cases().stream().filter(c -> c.input().turn() > 1).count();
        if (later > 0) {
          // Nothing surprising later: a run starts each case in a new session (README, Evals).
          err().println("note: " + later + " case(s) come from a session's turn 2 or later; 'cpctl eval run' runs"
              + " each case as the first turn of a new session, without the earlier turns' conversation");
        }
      }
      return Cpctl.OK;
    }

    /** Each cited entry that its stream's verification does not prove (read once per stream, by the read-only open). */
    private static List<String> unproven(Ledgers ledgers, EvalSuite suite) {
      SuiteVerifier check = new SuiteVerifier(ledgers);
      return suite.cases().stream().flatMap(c -> check.chainProblems(c).stream()).toList();
    }

    static Instant instant(String text) {
      try {
        return text.contains("T") ? Instant.parse(text) : LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("--since '" + text + "' is not a date (2026-11-01) or an instant"
            + " (2026-11-01T09:00:00Z)");
      }
    }
  }

  /** {@code cpctl eval verify}: each case against the ledger entries it cites. */
  @Command(name = "verify", mixinStandardHelpOptions = true,
      description = "Prove each case's input and recorded turn against the ledger entries it cites (hashes and chain)."
          + " Exit 0 when all match, 1 when any case was edited or cites an entry that is gone.")
  static final class Verify extends MaskedCliCommand implements Callable<Integer> {
    @Parameters(paramLabel = "SUITE", description = "The suite file (.json, else YAML).")
    Path suiteFile;

    @Override
    public Integer call() {
      EvalSuite suite = SuiteFiles.read(suiteFile);
      List<CaseVerdict> verdicts;
      try (Ledgers ledgers = readLedgers(config())) {
        verdicts = new SuiteVerifier(ledgers).verify(suite);
      }
      for (CaseVerdict v : verdicts) {
        out().printf(Locale.ROOT, "%-8s %s%n", v.status(), v.caseId());
        v.problems().forEach(p -> out().println("         " + p));
      }
      long bad = verdicts.stream().filter(v -> !v.ok()).count();
      out().printf(Locale.ROOT, "%d case(s): %d OK, %d not matching the ledger%n", verdicts.size(),
          verdicts.size() - bad, bad);
      return bad == 0 ? Cpctl.OK : Cpctl.FAILED;
    }
  }
}
