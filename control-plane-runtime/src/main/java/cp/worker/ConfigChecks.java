package cp.worker;

import cp.agents.AgentDefinitions;
import cp.gateway.TenantCaps;
import cp.tools.WriteFileTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What {@code cpctl config} reads besides {@link PlaneConfig#describe()}: the settings a worker
 * reads only when it starts (tenant caps, fallback models, write_file's limit, reply streaming, the
 * agent definitions directory), each shown, and each that a worker would refuse named with the
 * worker's own message, so {@code config} exits 2 where a start would. The definitions themselves
 * are {@code cpctl agents check}'s to read.
 */
public final class ConfigChecks {
  /** The rows to print and the problems a worker would stop at. */
  public record Result(List<String[]> rows, List<String> problems) {}

  private ConfigChecks() {}

  public static Result of(PlaneConfig cfg, Map<String, String> env) {
    List<String[]> rows = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    row(rows, problems, "tenant caps", () -> {
      TenantCaps caps = TenantCaps.fromEnv(env);
      return !caps.any() ? "none (set " + cp.model.UsdBudgets.TENANTS_FILE + ")"
          : caps.tenantIds().size() + " tenant(s) with caps from " + env.get(cp.model.UsdBudgets.TENANTS_FILE);
    });
    row(rows, problems, "fallback models", () -> {
      WorkerFallbacks.Chain chain = WorkerFallbacks.of(env, cfg.provider());
      return chain.models().isEmpty() ? "none (set " + WorkerFallbacks.VARIABLE + ")"
          : String.join(", ", chain.models().stream().map(m -> m.provider() + ":" + m.model()).toList());
    });
    row(rows, problems, "write_file limit", () -> WriteFileTool.fromEnvironment(env).maxBytes() + " bytes");
    row(rows, problems, "reply streaming", () -> TemporalReplySignals.enabled(env) ? "on" : "off ("
        + TemporalReplySignals.CP_STREAM_REPLIES + "=false)");
    cfg.agentsDir().ifPresent(dir -> {
      if (!Files.isDirectory(dir)) {
        problems.add(AgentDefinitions.VARIABLE + "=" + dir + " is not a directory");
      }
    });
    return new Result(rows, problems);
  }

  private static void row(List<String[]> rows, List<String> problems, String name, Supplier<String> value) {
    try {
      rows.add(new String[] {name, value.get()});
    } catch (RuntimeException e) {
      rows.add(new String[] {name, "INVALID (see below)"});
      problems.add(cp.model.RootCause.innermostMessage(e));
    }
  }
}
