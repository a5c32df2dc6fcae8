package cp.eval;

/** Judges one run of a case against its rubric ({@code expect.judge}). */
@FunctionalInterface
public interface EvalJudge {
  /** The verdict on {@code run} of {@code evalCase} in run {@code runId}; never null. */
  JudgeVerdict judge(String runId, EvalCase evalCase, CaseRun run);
}
