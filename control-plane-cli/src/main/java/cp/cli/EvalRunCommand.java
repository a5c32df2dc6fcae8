package cp.cli;

import cp.eval.CaseReport;
import cp.eval.CaseRun;
import cp.eval.EvalCase;
import cp.eval.EvalReports;
import cp.eval.EvalRunOptions;
import cp.eval.EvalRunStore;
import cp.eval.EvalRunner;
import cp.eval.EvalScope;
import cp.eval.ExpectationChecker;
import cp.eval.ReplyDiff;
import cp.observability.Telemetry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cpctl eval run SUITE} (issue 25): runs every case as a real turn on the run's own eval
 * worker ({@link EvalRunner}), checks each case's expectations, prints the table, writes JUnit XML
 * and a report. Exit 0 when every case passes, 1 when any fails, 2 on a usage error.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a suite's cases as real turns in an eval scope (tenant eval, its own ledgers and worker),"
        + " check their expectations, print the table. Exit 0 all pass, 1 any fails, 2 usage error.")
final class EvalRunCommand extends CliCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "SUITE", description = "The suite file (JSON or YAML).")
  Path suite;

  @Option(names = "--model", paramLabel = "M", description = "Run with this model: a name for the worker's provider,"
      + " or provider:model (offline, anthropic, openai).")
  String model;

  @Option(names = "--agents-dir", paramLabel = "DIR", description = "Run with these agent definitions"
      + " (instead of CP_AGENTS_DIR).")
  Path agentsDir;

  @Option(names = "--resources", paramLabel = "DIR", description = "Run with these contracts, prompts, agents and"
      + " attention templates over the built-in ones (instead of CP_RESOURCES_DIR).")
  Path resources;

  @Option(names = "--concurrency", paramLabel = "N", defaultValue = "" + EvalRunOptions.DEFAULT_CONCURRENCY,
      description = "Cases run at once. Default: ${DEFAULT-VALUE}.")
  int concurrency;

  @Option(names = "--junit", paramLabel = "FILE", description = "Write JUnit XML here (one testcase per case).")
  Path junit;

  @Option(names = "--report", paramLabel = "FILE", description = "Write a report here: .html, .md or .json.")
  Path report;

  @Option(names = "--baseline", paramLabel = "RUN", description = "Diff each reply against run RUN's (an EVR-… id"
      + " an earlier 'cpctl eval run' printed) instead of the recorded reply.")
  String baseline;

  @Option(names = "--live-tools", description = "Call tools for real instead of replaying the recorded results.")
  boolean liveTools;

  @Override
  public Integer call() throws InterruptedException {
    if (report != null && !report.toString().toLowerCase(Locale.ROOT).matches(".*\\.(html|md|json)")) {
      throw new IllegalArgumentException("--report " + report + ": the name must end in .html, .md or .json");
    }
    EvalReports writer = new EvalReports();
    // Before any case runs (a real model's calls are paid for): a report that cannot be written is found now.
    if (junit != null) {
      writer.checkWritable(junit);
    }
    if (report != null) {
      writer.checkWritable(report);
    }
    EvalRunOptions options = new EvalRunOptions(Optional.ofNullable(model), Optional.ofNullable(agentsDir),
        Optional.ofNullable(resources), concurrency, liveTools);
    Optional<EvalRunStore.Results> base = baseline == null ? Optional.empty()
        : Optional.of(EvalRunStore.results(config().home().resolve(EvalScope.DIR), baseline.strip()));
    EvalRunner.Outcome outcome;
    try (Telemetry telemetry = Telemetry.fromEnv(env(), null)) {
      outcome = EvalRunner.run(env(), suite, options, telemetry, this::announce, err()::println);
    }
    List<CaseReport> reports = new ArrayList<>();
    ExpectationChecker checker = new ExpectationChecker();
    for (int i = 0; i < outcome.runs().size(); i++) {
      EvalCase c = outcome.suite().cases().get(i);
      CaseRun run = outcome.runs().get(i);
      reports.add(new CaseReport(c, run, checker.check(c, run), diff(c, run, base)));
    }
    out().print(writer.table(reports));
    if (junit != null) {
      writer.junit(reports, junit);
    }
    if (report != null) {
      writer.write(reports, report);
    }
    summary(outcome, reports);
    return reports.stream().allMatch(CaseReport::passed) ? Cpctl.OK : Cpctl.FAILED;
  }

  private void announce(EvalScope scope) {
    out().println("eval run " + scope.runId() + ": " + suite + " with " + scope.describe() + ", tenant "
        + EvalScope.TENANT + ", ledgers in " + scope.root().resolve("home"));
  }

  /** The reply's diff against the baseline run's reply for the case (when given and it had the case), else the recorded one. */
  private String diff(EvalCase c, CaseRun run, Optional<EvalRunStore.Results> base) {
    Optional<CaseRun> before = base.flatMap(b -> b.run(c.id()));
    if (before.isPresent()) {
      return ReplyDiff.unified(before.get().reply(), run.reply(), "baseline " + baseline, "this run");
    }
    return ReplyDiff.unified(c.recorded() == null ? "" : c.recorded().reply(), run.reply(), "recorded", "this run");
  }

  private void summary(EvalRunner.Outcome outcome, List<CaseReport> reports) {
    long passed = reports.stream().filter(CaseReport::passed).count();
    Set<String> replayed = new LinkedHashSet<>();
    int unrecorded = 0;
    int notApproved = 0;
    for (CaseRun r : outcome.runs()) {
      replayed.addAll(r.replayedTools());
      unrecorded += r.unrecordedToolCalls().size();
      notApproved += r.notApprovedToolCalls().size();
    }
    out().println(passed + " of " + reports.size() + " cases passed. Tools " + (liveTools ? "ran live"
        : "replayed from the record" + (replayed.isEmpty() ? " (none called)" : ": " + String.join(", ", replayed))
        + (unrecorded == 0 ? "" : "; " + unrecorded + " call(s) had no recording (error results)"))
        + (notApproved == 0 ? "" : "; " + notApproved + " call(s) did not run: approval denied or timed out") + ".");
    out().println("results: " + outcome.scope().root().resolve("results.json") + " (compare a later run with"
        + " --baseline " + outcome.scope().runId() + ")");
  }
}
