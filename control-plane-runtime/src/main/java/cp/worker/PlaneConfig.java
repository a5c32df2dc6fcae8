package cp.worker;

import cp.contracts.Catalog;
import cp.contracts.CatalogRequirements;
import cp.contracts.ResourceSource;
import cp.gateway.CircuitBreakerConfig;
import cp.gateway.PriceTable;
import cp.gateway.ProviderConfigException;
import cp.gateway.ProviderFactory;
import cp.gateway.ProviderSelection;
import cp.gateway.Secret;
import cp.ledger.LedgerSettings;
import cp.agents.AgentDefinitions;
import cp.agents.PlaneAgents;
import cp.tools.mcp.McpSettings;
import cp.tools.registry.JavaToolPath;
import cp.worker.codec.PayloadKey;
import cp.observability.SecretMasker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The effective configuration of a plane process, read once from the environment.
 *
 * <p>Temporal's own variable names where they exist ({@code TEMPORAL_ADDRESS},
 * {@code TEMPORAL_NAMESPACE}, {@code TEMPORAL_API_KEY}, {@code TEMPORAL_TLS_*}), {@code CP_*}
 * for ours, and the providers' usual key variables. {@code CP_PAYLOAD_KEY} (base64 of 32 bytes)
 * turns on payload encryption. Every problem becomes a
 * {@link ConfigException} naming the variable.
 */
public record PlaneConfig(
    Path home,
    ProviderSelection provider,
    PriceTable prices,
    CircuitBreakerConfig breaker,
    LedgerSettings ledgers,
    WorkerSettings worker,
    String temporalAddress,
    String namespace,
    Secret temporalApiKey,
    TlsSettings tls,
    Optional<PayloadKey> payloadKey,
    Optional<Path> resourcesDir,
    Map<String, String> env,
    PlaneExtensions extensions) {

  public static final String DEFAULT_HOME = "cp-home";
  public static final String DEFAULT_NAMESPACE = "default";
  /** The variable naming a directory whose resource files add to (or replace, file by file) the built-in ones. */
  public static final String RESOURCES_DIR = "CP_RESOURCES_DIR";

  /**
   * What this plane's code needs from a catalog: the contracts its workflows plan under and only
   * the built-in tools. The product's own catalog meets them (ShippedCatalogTest); a
   * CP_RESOURCES_DIR is checked against them at load.
   */
  public static final CatalogRequirements CATALOG_REQUIREMENTS = CatalogRequirements.SHIPPED;

  /** TLS for a real Temporal cluster: client certificate and key, and an optional CA. */
  public record TlsSettings(boolean enabled, Path cert, Path key, Path ca, String serverName) {
    public static final TlsSettings OFF = new TlsSettings(false, null, null, null, null);
  }

  public PlaneConfig {
    env = Map.copyOf(env);
    extensions = extensions == null ? PlaneExtensions.NONE : extensions;
    payloadKey = payloadKey == null ? Optional.empty() : payloadKey;
    resourcesDir = resourcesDir == null ? Optional.empty() : resourcesDir;
  }

  /**
   * Where the catalog's files come from: the product's own classpath, with CP_RESOURCES_DIR's files
   * added (a file there replaces the built-in file of the same name; the others stay).
   */
  public ResourceSource catalogSource() {
    return resourcesDir.map(d -> ResourceSource.layered(ResourceSource.classpath(), ResourceSource.directory(d)))
        .orElseGet(ResourceSource::classpath);
  }

  /** CP_AGENTS_DIR: the directory of agent definitions, if set. */
  public Optional<Path> agentsDir() {
    return Optional.ofNullable(blankToNull(env.get(AgentDefinitions.VARIABLE)))
        .map(p -> Path.of(p).toAbsolutePath().normalize());
  }

  /** CP_TOOLS_PATH: the jars and directories of Java tools, or null. */
  public String toolsPath() {
    return blankToNull(env.get(JavaToolPath.VARIABLE));
  }

  /**
   * Whether this worker has more than the built-in agents and tools (CP_AGENTS_DIR, CP_TOOLS_PATH,
   * or tools and definitions registered in code).
   */
  public boolean extended() {
    return agentsDir().isPresent() || toolsPath() != null || !extensions.isEmpty();
  }

  /** The same configuration with tools and agent definitions registered in code. */
  public PlaneConfig withExtensions(PlaneExtensions more) {
    return new PlaneConfig(home, provider, prices, breaker, ledgers, worker, temporalAddress, namespace, temporalApiKey,
        tls, payloadKey, resourcesDir, env, more);
  }

  /** What {@link PlaneAgents} assembles for this configuration; the MCP timeout stays under the tool activity's. */
  public PlaneAgents.Settings agentSettings() {
    return new PlaneAgents.Settings(catalogSource(), agentsDir(), toolsPath(), env, mcpSettings(), extensions.tools(),
        extensions.definitions(), provider);
  }

  /**
   * The MCP client's timeouts: CP_MCP_TIMEOUT_MS for one request, which must stay under the tool
   * activity's CP_TOOL_TIMEOUT_MS (so the call, not the activity, times out); unset, 30 s or half
   * the activity's timeout, whichever is shorter.
   */
  public McpSettings mcpSettings() {
    return ToolTimeouts.mcp(env, worker.toolStartToClose());
  }

  /**
   * How long one Java tool call may run unless the agent gives the tool a {@code timeout_seconds}:
   * CP_JAVA_TOOL_TIMEOUT_MS, which must stay under CP_TOOL_TIMEOUT_MS; unset, 30 s or half the tool
   * activity's timeout, whichever is shorter.
   */
  public Duration javaToolTimeout() {
    return ToolTimeouts.javaCall(env, worker.toolStartToClose());
  }

  /**
   * The validated catalog from {@link #catalogSource()}.
   *
   * @throws cp.contracts.CatalogException naming every bad file and field
   */
  public Catalog loadCatalog() {
    return resourcesDir.isEmpty() ? Catalog.loadDefault() : Catalog.load(catalogSource(), CATALOG_REQUIREMENTS);
  }

  /**
   * Like a record's generated form, except that the environment shows variable names only: its
   * values include ANTHROPIC_API_KEY, OPENAI_API_KEY, TEMPORAL_API_KEY and CP_PAYLOAD_KEY, and a
   * config may end up in a log line or an exception message.
   */
  @Override
  public String toString() {
    return "PlaneConfig[home=" + home + ", provider=" + provider + ", prices=" + prices.models() + " models" + ", breaker=" + breaker
        + ", ledgers=" + ledgers + ", worker=" + worker + ", temporalAddress=" + temporalAddress + ", namespace="
        + namespace + ", temporalApiKey=" + temporalApiKey + ", tls=" + tls + ", payloadKey=" + payloadKey
        + ", resourcesDir=" + resourcesDir + ", env=" + new TreeSet<>(env.keySet()) + " (values not shown), extensions="
        + extensions.tools().size() + " tools and " + extensions.definitions().size() + " definitions in code]";
  }

  /** The same configuration with other ledger settings (a test gives the store its own hooks). */
  public PlaneConfig withLedgers(LedgerSettings other) {
    return new PlaneConfig(home, provider, prices, breaker, other, worker, temporalAddress, namespace, temporalApiKey,
        tls, payloadKey, resourcesDir, env, extensions);
  }

  /**
   * A masker for this process's secrets (issue 20 §1): the values of its secret variables
   * ({@link SecretMasker#fromEnv}) and the common secret patterns. Each call builds a new one; a
   * process keeps the one it built (and registers later secrets, e.g. an MCP server's, on it).
   */
  public SecretMasker secretMasker() {
    return SecretMasker.fromEnv(env);
  }

  /** The embedded service (no TEMPORAL_ADDRESS) or a real one. */
  public boolean embedded() {
    return temporalAddress == null;
  }

  public static PlaneConfig fromEnv(Map<String, String> env) {
    Path home = home(env);
    ProviderSelection provider;
    try {
      provider = ProviderFactory.select(env);
    } catch (ProviderConfigException e) {
      throw new ConfigException(e.variable(), e.getMessage(), e);
    }
    LedgerSettings ledgers;
    try {
      ledgers = LedgerSettings.fromEnv(env);
    } catch (IllegalArgumentException e) {
      // LedgerSettings names the variable at the start of its message.
      throw new ConfigException(e.getMessage().split("[=:]", 2)[0], e.getMessage(), e);
    }
    WorkerSettings worker = WorkerSettings.fromEnv(env);
    CircuitBreakerConfig breaker = new CircuitBreakerConfig(
        (int) number(env, "CP_BREAKER_FAILURES", CircuitBreakerConfig.DEFAULT_FAILURE_THRESHOLD),
        Duration.ofMillis(number(env, "CP_BREAKER_COOLDOWN_MS", CircuitBreakerConfig.DEFAULT_COOLDOWN.toMillis())));
    PriceTable prices;
    try {
      prices = PriceTable.fromEnv(env, provider.type().id());
    } catch (ProviderConfigException e) {
      throw new ConfigException(e.variable(), e.getMessage(), e);
    }
    String address = blankToNull(env.get("TEMPORAL_ADDRESS"));
    if (address != null && !address.matches("[A-Za-z0-9._\\-\\[\\]:]+:\\d{1,5}")) {
      throw new ConfigException("TEMPORAL_ADDRESS", "TEMPORAL_ADDRESS='" + address
          + "' is not host:port (e.g. localhost:7233); unset it to use the embedded service");
    }
    String namespace = env.getOrDefault("TEMPORAL_NAMESPACE", DEFAULT_NAMESPACE);
    Secret apiKey = env.get("TEMPORAL_API_KEY") == null || env.get("TEMPORAL_API_KEY").isBlank() ? Secret.NONE
        : Secret.of(env.get("TEMPORAL_API_KEY").trim());
    return new PlaneConfig(home, provider, prices, breaker, ledgers, worker, address, namespace, apiKey, tls(env),
        PayloadKey.fromEnv(env), resourcesDir(env), env, PlaneExtensions.NONE);
  }

  /**
   * CP_RESOURCES_DIR: a directory holding contracts/, prompts/, agents/ and attention/ to load
   * instead of the built-in ones (an operator's own agents or limits; the JSON schemas that
   * check them always come from the product). Unset: the built-in resources.
   */
  private static Optional<Path> resourcesDir(Map<String, String> env) {
    String raw = blankToNull(env.get(RESOURCES_DIR));
    if (raw == null) {
      return Optional.empty();
    }
    Path p;
    try {
      p = Path.of(raw).toAbsolutePath().normalize();
    } catch (RuntimeException e) {
      throw new ConfigException(RESOURCES_DIR, RESOURCES_DIR + "='" + raw + "' is not a valid path");
    }
    if (!Files.isDirectory(p) || !Files.isReadable(p)) {
      throw new ConfigException(RESOURCES_DIR, RESOURCES_DIR + "=" + p + " is not a readable directory; point it at"
          + " a directory with contracts/, prompts/, agents/ and attention/, or unset it for the built-in resources");
    }
    return Optional.of(p);
  }

  private static Path home(Map<String, String> env) {
    String raw = env.getOrDefault("CP_HOME", DEFAULT_HOME);
    if (raw.isBlank()) {
      throw new ConfigException("CP_HOME", "CP_HOME is empty; set it to a directory for the ledgers (default ./"
          + DEFAULT_HOME + ")");
    }
    Path p;
    try {
      p = Path.of(raw).toAbsolutePath().normalize();
    } catch (RuntimeException e) {
      throw new ConfigException("CP_HOME", "CP_HOME='" + raw + "' is not a valid path");
    }
    if (Files.exists(p) && !Files.isDirectory(p)) {
      throw new ConfigException("CP_HOME", "CP_HOME=" + p + " exists but is not a directory; point it at a"
          + " directory for the ledgers");
    }
    return p;
  }

  /** Creates the plane root if needed; a root that cannot be created or written is a ConfigException. */
  public Path ensureHome() {
    try {
      Files.createDirectories(home);
    } catch (Exception e) {
      throw new ConfigException("CP_HOME", "cannot create CP_HOME=" + home + ": " + e.getMessage());
    }
    if (!Files.isWritable(home)) {
      throw new ConfigException("CP_HOME", "CP_HOME=" + home + " is not writable by this user");
    }
    Path readme = home.resolve("README.md");
    if (!Files.exists(readme)) {
      try {
        Files.writeString(readme, PLANE_README);
      } catch (Exception e) {
        throw new ConfigException("CP_HOME", "cannot write " + readme + ": " + e.getMessage());
      }
    }
    return home;
  }

  /** Written once into a new plane root, so a person (or the ADMIN agent's read_file) can tell what it is. */
  static final String PLANE_README = """
      # Control Plane root

      This directory is a Control Plane's plane root (CP_HOME). It holds the append-only,
      hash-chained ledgers of the plane's tiers:

      - HOT/ledger/governance.jsonl: EXCHANGE records (every LLM round trip), sessions, degradations
      - HO3/ledger/anchors.jsonl: north stars and salience anchors (may be absent)
      - HO2/ledger/<AGENT_CLASS>/workorder.jsonl: the supervisor's work-order events per agent class
      - HO1/ledger/worker.jsonl: the executor's trace (prompts, LLM calls, tool calls, results)

      Each ledger has a .head sidecar (its acknowledged length and last hash). Never edit these
      files by hand: 'cpctl ledger verify' checks every chain, 'cpctl ledger repair' quarantines a
      broken tail, 'cpctl show SESSION_ID' and 'cpctl ledger query' read them.
      """;

  private static TlsSettings tls(Map<String, String> env) {
    Path cert = path(env, "TEMPORAL_TLS_CERT");
    Path key = path(env, "TEMPORAL_TLS_KEY");
    Path ca = path(env, "TEMPORAL_TLS_CA");
    boolean flag = "true".equalsIgnoreCase(env.getOrDefault("TEMPORAL_TLS", "false"));
    if ((cert == null) != (key == null)) {
      throw new ConfigException(cert == null ? "TEMPORAL_TLS_CERT" : "TEMPORAL_TLS_KEY",
          "TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together (client certificate and its key)");
    }
    boolean enabled = flag || cert != null || ca != null || (env.get("TEMPORAL_API_KEY") != null
        && !env.get("TEMPORAL_API_KEY").isBlank());
    return enabled ? new TlsSettings(true, cert, key, ca, blankToNull(env.get("TEMPORAL_TLS_SERVER_NAME")))
        : TlsSettings.OFF;
  }

  private static Path path(Map<String, String> env, String var) {
    String v = blankToNull(env.get(var));
    if (v == null) {
      return null;
    }
    Path p = Path.of(v);
    if (!Files.isReadable(p)) {
      throw new ConfigException(var, var + "=" + v + " is not a readable file");
    }
    return p;
  }

  private static long number(Map<String, String> env, String var, long fallback) {
    String v = blankToNull(env.get(var));
    return v == null ? fallback : EnvNumbers.positive(var, v, Long.MAX_VALUE, "a positive whole number");
  }


  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /** The effective settings for {@code cpctl config}, secrets masked. */
  public List<String[]> describe() {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"CP_HOME", home.toString()});
    rows.add(new String[] {"resources", resourcesDir.map(p -> "built in + directory " + p + " (" + RESOURCES_DIR + ")")
        .orElse("built in (classpath)")});
    rows.add(new String[] {"agent definitions", agentsDir().map(p -> p + " (" + AgentDefinitions.VARIABLE + ")")
        .orElse("none (set " + AgentDefinitions.VARIABLE + ")")});
    rows.add(new String[] {"Java tools", toolsPath() == null ? "none (set " + JavaToolPath.VARIABLE + ")"
        : toolsPath() + " (" + JavaToolPath.VARIABLE + ")"});
    rows.add(new String[] {"provider", provider.type().id() + " (" + provider.reason() + ")"});
    provider.settings().ifPresent(s -> {
      rows.add(new String[] {"provider base URL", s.baseUrl().toString()});
      rows.add(new String[] {"model", s.defaultModel()});
      rows.add(new String[] {"provider API key", s.apiKey().toString()});
    });
    rows.add(new String[] {"prices", prices.models() + " models (shipped list prices" + (blankToNull(env.get(
        PriceTable.PRICES_FILE)) == null ? "" : " and " + PriceTable.PRICES_FILE + "=" + env.get(PriceTable.PRICES_FILE))
        + "); other models " + prices.providerDefault(provider.type().id()).map(p -> p.inputPerMillion() + " / "
        + p.outputPerMillion() + " USD/Mtok in/out (CP_PRICE_*)").orElse("cost unknown (set CP_PRICE_*)")});
    rows.add(new String[] {"circuit breaker", breaker.failureThreshold() + " failures, " + breaker.cooldown().toMillis()
        + " ms cooldown"});
    rows.add(new String[] {"ledger store", ledgers.database() == null ? "JSONL files under CP_HOME (set "
        + cp.ledger.LedgerDatabase.URL_VARIABLE + " for PostgreSQL)" : "PostgreSQL " + ledgers.database().redactedUrl()
        + (ledgers.database().user() == null ? "" : " (user " + ledgers.database().user() + ")")});
    for (var t : cp.ledger.Tier.values()) {
      rows.add(new String[] {"ledger " + t.wireName(), ledgers.options(t).durability().name().toLowerCase()});
    }
    rows.add(new String[] {"ledger chain", ledgers.key().map(k -> "keyed: HMAC-SHA256, " + cp.ledger.ChainKey.VARIABLE
        + " " + Secret.MASK + " (key id " + k.id() + ")").orElse("unkeyed: SHA-256 (set " + cp.ledger.ChainKey.VARIABLE
        + " to key it)")});
    rows.add(new String[] {"TEMPORAL_ADDRESS", embedded() ? "(unset: embedded in-process service)" : temporalAddress});
    rows.add(new String[] {"TEMPORAL_NAMESPACE", namespace});
    rows.add(new String[] {"TEMPORAL_API_KEY", temporalApiKey.toString()});
    rows.add(new String[] {"TLS", tls.enabled() ? "on" : "off"});
    rows.add(new String[] {"payload encryption", payloadKey.map(k -> "on (AES-256-GCM, CP_PAYLOAD_KEY key id "
        + k.id() + ")").orElse("off (set CP_PAYLOAD_KEY to encrypt prompts and answers in Temporal)")});
    rows.add(new String[] {"task queue", worker.taskQueue()});
    rows.add(new String[] {"LLM call timeout / heartbeat", worker.llmStartToClose().toMillis() + " ms / "
        + worker.heartbeatTimeout().toMillis() + " ms"});
    rows.add(new String[] {"LLM max attempts", String.valueOf(worker.llmMaxAttempts())});
    rows.add(new String[] {"retry after a dead worker / a provider error", worker.remoteRetryInterval().toMillis()
        + " ms / " + worker.retryInitialInterval().toMillis() + " ms doubling to " + worker.retryMaxInterval().toMillis()
        + " ms"});
    rows.add(new String[] {"continue-as-new after turns", String.valueOf(worker.continueAsNewAfterTurns())});
    rows.add(new String[] {"tool activity / Java tool call / MCP request", worker.toolStartToClose().toMillis() + " ms / "
        + javaToolTimeout().toMillis() + " ms / " + mcpSettings().requestTimeout().toMillis() + " ms (an agent's"
        + " tool_timeout_seconds overrides the last two per tool)"});
    return rows;
  }
}
