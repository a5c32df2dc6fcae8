package cp.eval;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs a suite's cases (issue 25 §2): the cases the run finished before are taken from its store and
 * not run again; the others run at most {@code concurrency} at once, each as a real turn
 * ({@link CaseExecution}), then the judge for the cases that ask for one ({@link EvalJudge}); the
 * results are written for {@code --baseline}. Returns the runs in the suite's order.
 */
public final class EvalRun {
  private final EvalScope scope;
  private final EvalRunStore store;
  private final EvalRunOptions options;

  public EvalRun(EvalScope scope, EvalRunOptions options) {
    this.scope = scope;
    this.options = options;
    this.store = new EvalRunStore(scope.root());
  }

  public EvalRunStore store() {
    return store;
  }

  /** Runs {@code suite} on {@code plane}; {@code suiteName} is recorded with the results. */
  public List<CaseRun> run(EvalSuite suite, String suiteName, EvalPlane plane, EvalJudge judge,
      Consumer<String> progress) throws InterruptedException {
    CaseExecution execution = new CaseExecution(scope, store, plane, options.liveTools(), progress);
    List<Future<CaseRun>> pending = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(options.concurrency(), Math.max(1,
        suite.cases().size())), r -> {
          Thread t = new Thread(r, "eval-case");
          t.setDaemon(true);
          return t;
        });
    try {
      for (EvalCase c : suite.cases()) {
        Optional<CaseRun> done = store.finished(c.id());
        if (done.isPresent()) {
          progress.accept(c.id() + ": finished in an earlier run of " + scope.runId() + ", not run again");
          pending.add(java.util.concurrent.CompletableFuture.completedFuture(done.get()));
          continue;
        }
        pending.add(pool.submit(() -> {
          CaseRun r = execution.run(c);
          progress.accept(c.id() + ": " + (r.error() != null ? "error: " + r.error() : r.outcome()) + " ("
              + r.latencyMs() + " ms, session " + r.sessionId() + ")");
          return r;
        }));
      }
      List<CaseRun> out = new ArrayList<>();
      for (int i = 0; i < pending.size(); i++) {
        EvalCase c = suite.cases().get(i);
        CaseRun r;
        try {
          r = pending.get(i).get();
        } catch (ExecutionException e) {
          // not recorded as finished (the Temporal service could not be reached): run again, it runs
          r = CaseRuns.failed(c.id(), null, cp.model.RootCause.innermostMessage(e)
              + " (not recorded: the same command runs this case again)", 0);
        }
        boolean toJudge = c.expect().judge() != null && r.judge() == null && r.error() == null;
        if (judge != null && toJudge) {
          r = CaseRuns.withJudge(r, judge.judge(scope.runId(), c, r));
          store.finish(r);
        }
        out.add(r);
      }
      store.results(new EvalRunStore.Results(scope.runId(), suiteName, scope.describe(), Instant.now().toString(),
          out));
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
