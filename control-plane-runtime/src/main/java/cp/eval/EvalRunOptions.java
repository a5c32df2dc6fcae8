package cp.eval;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code cpctl eval run} runs a suite with besides the environment: another model
 * ({@code provider:model} or a name), agent definitions or resources directory, how many cases at
 * once, and whether tools run for real ({@code --live-tools}) instead of being replayed.
 */
public record EvalRunOptions(Optional<String> model, Optional<Path> agentsDir, Optional<Path> resourcesDir,
    int concurrency, boolean liveTools) {
  /** Cases run at once when not told: enough to overlap model calls, few enough for a laptop's provider quota. */
  public static final int DEFAULT_CONCURRENCY = 4;

  public EvalRunOptions {
    model = model == null ? Optional.empty() : model;
    agentsDir = agentsDir == null ? Optional.empty() : agentsDir;
    resourcesDir = resourcesDir == null ? Optional.empty() : resourcesDir;
    if (concurrency < 1) {
      throw new IllegalArgumentException("--concurrency " + concurrency + " must be at least 1");
    }
  }

  public static EvalRunOptions defaults() {
    return new EvalRunOptions(Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_CONCURRENCY, false);
  }
}
