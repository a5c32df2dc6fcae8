package cp.activities;

import cp.model.DegradedRequest;
import cp.model.LlmRoundRequest;
import cp.model.LlmRoundResult;
import cp.model.PreparedWorkOrder;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.WoFinishRequest;
import cp.model.WorkOrder;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The real HO1 activities, except that the first attempt of a chosen round trip or tool call
 * does all its work (provider call, tool run, ledger writes) and then fails as if the worker
 * had died before Temporal heard of the completion. Temporal retries the same activity (same
 * workflow, run and activity id), which must find the work done instead of doing it again.
 *
 * <p>TestActivityEnvironment cannot stand in for this: it gives every invocation a fresh
 * activity id and run id, so a second call there is a new activity, not a retry.
 */
final class LostCompletions implements Ho1Activities {
  /** Failure type of the lost completion; retryable under the worker's retry options. */
  static final String LOST = "worker_lost_completion";

  /** One attempt of an activity and what it returned before its completion was (maybe) lost. */
  record Attempt<T>(int round, int attempt, T result) {}

  private final Ho1Activities real;
  private final int loseLlmRound;
  private final int loseToolRound;
  private final boolean loseFinish;
  final List<Attempt<LlmRoundResult>> llmAttempts = Collections.synchronizedList(new ArrayList<>());
  final List<Attempt<ToolCallResult>> toolAttempts = Collections.synchronizedList(new ArrayList<>());
  final List<Attempt<WorkOrder>> finishAttempts = Collections.synchronizedList(new ArrayList<>());

  /** Loses the first completion of LLM round {@code llmRound} and of the tool call in {@code toolRound} (0: none). */
  LostCompletions(Ho1Activities real, int llmRound, int toolRound) {
    this(real, llmRound, toolRound, false);
  }

  /** As above, and also the first completion of {@code finish} when {@code finish} is true. */
  LostCompletions(Ho1Activities real, int llmRound, int toolRound, boolean finish) {
    this.real = real;
    this.loseLlmRound = llmRound;
    this.loseToolRound = toolRound;
    this.loseFinish = finish;
  }

  @Override
  public LlmRoundResult llmRound(LlmRoundRequest request) {
    LlmRoundResult result = real.llmRound(request);
    int attempt = attempt();
    llmAttempts.add(new Attempt<>(request.round(), attempt, result));
    if (request.round() == loseLlmRound && attempt == 1) {
      throw lost("llmRound round " + request.round());
    }
    return result;
  }

  @Override
  public ToolCallResult toolCall(ToolCallRequest request) {
    ToolCallResult result = real.toolCall(request);
    int attempt = attempt();
    toolAttempts.add(new Attempt<>(request.round(), attempt, result));
    if (request.round() == loseToolRound && attempt == 1) {
      throw lost("toolCall round " + request.round());
    }
    return result;
  }

  @Override
  public PreparedWorkOrder prepare(WorkOrder workOrder) {
    return real.prepare(workOrder);
  }

  @Override
  public WorkOrder finish(WoFinishRequest request) {
    WorkOrder result = real.finish(request);
    int attempt = attempt();
    finishAttempts.add(new Attempt<>(0, attempt, result));
    if (loseFinish && attempt == 1) {
      throw lost("finish");
    }
    return result;
  }

  @Override
  public LlmRoundResult degradedCall(DegradedRequest request) {
    return real.degradedCall(request);
  }

  List<Attempt<LlmRoundResult>> llmAttempts(int round) {
    synchronized (llmAttempts) {
      return llmAttempts.stream().filter(a -> a.round() == round).toList();
    }
  }

  List<Attempt<ToolCallResult>> toolAttempts(int round) {
    synchronized (toolAttempts) {
      return toolAttempts.stream().filter(a -> a.round() == round).toList();
    }
  }

  private static int attempt() {
    return Activity.getExecutionContext().getInfo().getAttempt();
  }

  private static ApplicationFailure lost(String what) {
    return ApplicationFailure.newFailure(what + " did its work, but the worker died before reporting it (test)",
        LOST);
  }
}
