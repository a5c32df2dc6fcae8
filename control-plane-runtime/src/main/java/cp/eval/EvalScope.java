package cp.eval;

import cp.agents.AgentDefinitions;
import cp.gateway.ProviderEnvironment;
import cp.gateway.ProviderType;
import cp.ledger.LedgerDatabase;
import cp.model.Json;
import cp.worker.PlaneConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where and how an eval run runs (issue 25 §2): its id, its own plane root, task queue, tenant and
 * settings, apart from production.
 *
 * <ul>
 *   <li>The run id ({@code EVR-} + 12 hex) is a hash of the suite and of what the run's worker runs
 *       with: provider, model (after {@code --model}) and endpoint, fallback models, the content of
 *       the agent definitions and resource directories, the Java tools path, replayed or live tools. The same command over the same suite and
 *       files is the same run (so it resumes); any change is another run.
 *   <li>Its plane root is {@code CP_HOME/evals/<run>/home}: the eval worker's ledgers (always JSONL
 *       files there, also when production uses {@code CP_LEDGER_URL}) and tenant counters, so the
 *       production ledgers, {@code cpctl spend} and the production tenants' counters never see it.
 *   <li>Its sessions run in tenant {@value #TENANT} on the task queue {@code cp-eval-<run>}, which only
 *       the run's own worker polls; each case's session id and turn update id are derived from the
 *       run id, the case id and the attempt, so a command run again finds them.
 * </ul>
 */
public final class EvalScope {
  /** The tenant every eval session runs in. */
  public static final String TENANT = "eval";
  /** The directory under CP_HOME that holds every run's files. */
  public static final String DIR = "evals";
  /** The run's resources directory under its root: the operator's resources plus the judge's contract. */
  static final String RESOURCES = "resources";
  /** The worker's fallback chain: another chain may answer differently, so it is part of the run id. */
  private static final String FALLBACK_MODELS = "CP_FALLBACK_MODELS";
  /** Variables of production's ledger database: the eval worker keeps its ledgers in its own files. */
  private static final List<String> PRODUCTION_ONLY = List.of(LedgerDatabase.URL_VARIABLE,
      LedgerDatabase.USER_VARIABLE, LedgerDatabase.PASSWORD_VARIABLE, "CP_METRICS_PORT");

  private final String runId;
  private final Path root;
  private final Map<String, String> env;
  private final String describe;
  /** The operator's resources directory (--resources, else CP_RESOURCES_DIR), copied into the run's. */
  private final Optional<Path> ownResources;

  private EvalScope(String runId, Path root, Map<String, String> env, Optional<Path> ownResources, String describe) {
    this.ownResources = ownResources;
    this.runId = runId;
    this.root = root;
    this.env = Map.copyOf(env);
    this.describe = describe;
  }

  /**
   * The scope of running {@code suite} with {@code options} from a process configured by
   * {@code productionEnv} (whose CP_HOME holds the runs).
   *
   * @throws IllegalArgumentException naming the option when a directory is not one, or a model is blank
   */
  public static EvalScope of(Map<String, String> productionEnv, EvalSuite suite, EvalRunOptions options) {
    Path home = PlaneConfig.fromEnv(productionEnv).home();
    Map<String, String> env = new HashMap<>(productionEnv);
    PRODUCTION_ONLY.forEach(env::remove);
    Optional<String> modelName = options.model().flatMap(m -> model(env, m));
    options.agentsDir().ifPresent(d -> env.put(AgentDefinitions.VARIABLE, directory("--agents-dir", d).toString()));
    options.resourcesDir().ifPresent(d -> env.put(PlaneConfig.RESOURCES_DIR, directory("--resources", d).toString()));
    PlaneConfig eval = PlaneConfig.fromEnv(env);
    if (modelName.isPresent() && eval.provider().type() == ProviderType.OFFLINE) {
      throw new IllegalArgumentException(offlineModel(options.model().get(), modelName.get()));
    }
    String model = eval.provider().settings().map(s -> s.defaultModel()).orElse("-");
    String what = "provider=" + eval.provider().type().id() + "\nmodel=" + model
        + "\nendpoint=" + eval.provider().settings().map(s -> s.baseUrl().toString()).orElse("-")
        + "\nfallback=" + env.getOrDefault(FALLBACK_MODELS, "-") + "\ntools_path=" + env.getOrDefault(
        cp.tools.registry.JavaToolPath.VARIABLE, "-")
        + "\nagents=" + eval.agentsDir().map(EvalScope::contentHash).orElse("-")
        + "\nresources=" + eval.resourcesDir().map(EvalScope::contentHash).orElse("-")
        + "\ntools=" + (options.liveTools() ? "live" : "replayed");
    String runId = "EVR-" + Json.sha256(Json.canonical(suite) + "\n" + what).substring(0, 12);
    Path root = home.resolve(DIR).resolve(runId);
    env.put("CP_HOME", root.resolve("home").toString());
    env.put(PlaneConfig.RESOURCES_DIR, root.resolve(RESOURCES).toString());
    env.put("CP_TASK_QUEUE", "cp-eval-" + runId);
    return new EvalScope(runId, root, env, eval.resourcesDir(), eval.provider().type().id()
        + ("-".equals(model) ? "" : " " + model)
        + eval.agentsDir().map(d -> ", agents " + d).orElse("") + eval.resourcesDir().map(d -> ", resources " + d)
        .orElse("") + (options.liveTools() ? ", live tools" : ", tools replayed"));
  }

  /**
   * {@code provider:model} (provider one of offline, anthropic, openai) or a model name for the
   * worker's provider: sets the provider and the model in {@code env}; returns the model name, if any.
   */
  static Optional<String> model(Map<String, String> env, String m) {
    String value = m.strip();
    if (value.isEmpty()) {
      throw new IllegalArgumentException("--model is empty; give a model name, or provider:model");
    }
    int colon = value.indexOf(':');
    Optional<ProviderType> provider = colon > 0 ? ProviderType.fromId(value.substring(0, colon)) : Optional.empty();
    if (provider.isPresent()) {
      env.put(ProviderEnvironment.CP_PROVIDER, provider.get().id());
      value = value.substring(colon + 1);
    }
    if (!value.isEmpty()) {
      env.put(ProviderEnvironment.CP_MODEL, value);
      return Optional.of(value);
    }
    return Optional.empty();
  }

  /**
   * Why {@code --model} naming a model is refused when the run's provider is offline: the offline model
   * answers by fixed rules whatever the name, so the run would silently be the offline one.
   */
  private static String offlineModel(String option, String name) {
    int colon = option.indexOf(':');
    String prefix = colon > 0 ? option.substring(0, colon).strip() : "";
    if (!prefix.isEmpty() && ProviderType.fromId(prefix).isEmpty()) {
      return "--model " + option + ": '" + prefix + "' is not a provider (known: offline, anthropic, openai; give"
          + " provider:model, e.g. anthropic:claude-sonnet-4-5)";
    }
    return "--model " + option + ": the run's provider is offline, which has no models ('" + name + "' would be"
        + " ignored); give provider:model (anthropic:…, openai:…), or set CP_PROVIDER";
  }

  private static Path directory(String option, Path dir) {
    Path p = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(p)) {
      throw new IllegalArgumentException(option + " " + dir + " is not a directory");
    }
    return p;
  }

  /** SHA-256 over the directory's files (relative path and content), so an edited definition is another run. */
  static String contentHash(Path dir) {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        sb.append(dir.relativize(f)).append(' ').append(Json.sha256(Files.readAllBytes(f))).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
    }
    return Json.sha256(sb.toString());
  }

  public String runId() {
    return runId;
  }

  /** {@code CP_HOME/evals/<run>}: the run's files (cases, results) and its plane root {@code home}. */
  public Path root() {
    return root;
  }

  /** The eval worker's environment: production's, with the run's plane root, task queue and overrides. */
  public Map<String, String> env() {
    return env;
  }

  /**
   * The eval worker's configuration; first (re)writes its resources directory
   * {@code CP_HOME/evals/<run>/resources} ({@link JudgeResources}).
   */
  public PlaneConfig config() {
    JudgeResources.prepare(ownResources, root.resolve(RESOURCES));
    return PlaneConfig.fromEnv(env);
  }

  /** What the run's worker runs with, in one line (provider model, directories, tools). */
  public String describe() {
    return describe;
  }

  /** The session of case {@code caseId}'s {@code attempt} (0 first): {@code SES-} + 8 hex of run, case and attempt. */
  public String sessionId(String caseId, int attempt) {
    return "SES-" + Json.sha256(runId + "\n" + caseId + "\n" + attempt).substring(0, 8);
  }

  /** The update id of that session's turn: a turn sent again with it runs once. */
  public String turnUpdateId(String caseId, int attempt) {
    return "eval/" + runId + "/" + caseId + "/" + attempt;
  }
}
