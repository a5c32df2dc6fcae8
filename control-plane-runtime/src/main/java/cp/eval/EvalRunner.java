package cp.eval;

import cp.model.JudgeRequest;
import cp.observability.Telemetry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code cpctl eval run}'s work without the printing (issue 25 §1-5): reads the suite, derives the
 * run's {@link EvalScope}, starts the run's own eval worker ({@link EvalPlane}), runs the cases not
 * finished before ({@link EvalRun}) and the judge ({@link PlaneJudge}), and stops the worker.
 */
public final class EvalRunner {
  /** A run's outcome: where it ran, the suite, and every case's run in the suite's order. */
  public record Outcome(EvalScope scope, EvalSuite suite, List<CaseRun> runs) {
    public Outcome {
      runs = List.copyOf(runs);
    }
  }

  private EvalRunner() {}

  /**
   * Runs {@code suiteFile} from a process configured by {@code env}.
   *
   * @param started hears the run id and what the worker runs with, before any case runs
   * @param progress hears one line per case
   * @throws SuiteFileException when the suite cannot be read
   */
  public static Outcome run(Map<String, String> env, Path suiteFile, EvalRunOptions options, Telemetry telemetry,
      Consumer<EvalScope> started, Consumer<String> progress) throws InterruptedException {
    EvalSuite suite = SuiteFiles.read(suiteFile);
    EvalScope scope = EvalScope.of(env, suite, options);
    started.accept(scope);
    try (EvalPlane plane = EvalPlane.start(scope, telemetry)) {
      PlaneJudge judge = new PlaneJudge(plane.client(), plane.runtime().config().worker().taskQueue(),
          JudgeRequest.DEFAULT_TOKEN_BUDGET);
      List<CaseRun> runs = new EvalRun(scope, options).run(suite, suiteFile.toString(), plane, judge, progress);
      return new Outcome(scope, suite, runs);
    }
  }
}
