package cp.worker;

import cp.activities.ActivityContextSource;
import cp.activities.AttentionAssembler;
import cp.activities.Ho1ActivitiesImpl;
import cp.activities.Ho2ActivitiesImpl;
import cp.activities.RetryBackoff;
import cp.activities.SessionActivitiesImpl;
import cp.agents.PlaneAgents;
import cp.contracts.Catalog;
import cp.contracts.PromptRenderer;
import cp.contracts.SchemaValidator;
import cp.gateway.CircuitBreaker;
import cp.gateway.ExchangeSpool;
import cp.gateway.Gateway;
import cp.gateway.GatewayConfig;
import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.OutputValidator;
import cp.gateway.ProviderFactory;
import cp.faults.FaultHook;
import cp.ledger.AppendObserver;
import cp.ledger.LedgerHooks;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.observability.Telemetry;
import cp.ledger.PlaneLayout;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import cp.contracts.ResourceSource;
import cp.tools.IntegrityGates;
import cp.tools.ToolDispatcher;
import cp.tools.ToolExecutor;
import cp.tools.ToolSettings;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything a worker process holds: the validated catalog, the plane's ledgers, the gateway
 * with its provider, the tool executor, and the activity implementations built on them.
 *
 * <p>Everything is loaded once at start-up; a bad resource file or configuration stops the
 * process here with a message naming the file or variable, before any workflow runs.
 */
public final class PlaneRuntime implements AutoCloseable {
  private final PlaneConfig config;
  private final Catalog catalog;
  private final Ledgers ledgers;
  private final Gateway gateway;
  private final LlmProvider provider;
  private final ToolExecutor tools;
  private final Clock clock;
  private final SecretMasker masker;
  private final ProcessServices services;
  private final Object[] activities;
  /** The defined agents, Java tools and MCP servers (CP_AGENTS_DIR, CP_TOOLS_PATH), or null without them. */
  private final PlaneAgents agents;

  /** Issue 23: the tenants' caps and counters (closed with the runtime). */
  private final cp.gateway.TenantGuard tenants;

  private PlaneRuntime(PlaneConfig config, Catalog catalog, Ledgers ledgers, LlmProvider provider, Gateway gateway,
      ToolExecutor tools, Clock clock, SecretMasker masker, ProcessServices services, PlaneAgents agents,
      cp.gateway.TenantGuard tenants) {
    this.tenants = tenants;
    this.agents = agents;
    this.config = config;
    this.masker = masker;
    this.services = services;
    this.catalog = catalog;
    this.ledgers = ledgers;
    this.provider = provider;
    this.gateway = gateway;
    this.tools = tools;
    this.clock = clock;
    this.activities = activities(ActivityContextSource.TEMPORAL);
  }

  /**
   * A fresh set of the activity implementations on this runtime's catalog, ledgers, gateway and
   * tools, learning each call's identity from {@code context}: what runs them outside Temporal
   * (the benchmark's plain loop) passes its own source; the worker's set ({@link #activities()})
   * uses Temporal's.
   */
  public Object[] activities(ActivityContextSource context) {
    return activities(context, cp.activities.ReplySignals.NONE);
  }

  /**
   * The worker's set, whose streamed rounds (issue 24) signal their turn workflows through
   * {@code client}, unless {@code CP_STREAM_REPLIES=false}.
   */
  public Object[] activities(io.temporal.client.WorkflowClient client) {
    return activities(ActivityContextSource.TEMPORAL, TemporalReplySignals.enabled(config.env())
        ? new TemporalReplySignals(client) : cp.activities.ReplySignals.NONE);
  }

  private Object[] activities(ActivityContextSource context, cp.activities.ReplySignals replies) {
    String defaultModel = config.provider().settings().map(s -> s.defaultModel()).orElse(null);
    Telemetry telemetry = services.telemetry();
    return new Object[] {
        new Ho1ActivitiesImpl(catalog, gateway, ledgers, tools, defaultModel, clock,
            new RetryBackoff(config.worker().retryInitialInterval(), config.worker().retryMaxInterval()), context,
            telemetry, services.faults(), replies),
        new Ho2ActivitiesImpl(ledgers, new AttentionAssembler(catalog, ledgers, clock, services.faults()), context,
            telemetry),
        new SessionActivitiesImpl(catalog, ledgers, context, telemetry,
            new cp.activities.AgentPrices(catalog, gateway, defaultModel), tenants),
        new cp.activities.ApprovalActivitiesImpl(ledgers),
        new cp.activities.CatalogActivitiesImpl(catalog)};
  }

  /** Builds the runtime for {@code config} with the provider it selects and the built-in tools, reporting nothing. */
  public static PlaneRuntime open(PlaneConfig config) {
    return open(config, ProcessServices.NONE);
  }

  /** Builds the runtime for {@code config} with the provider it selects and the built-in tools, for {@code services}. */
  public static PlaneRuntime open(PlaneConfig config, ProcessServices services) {
    return open(config, PlaneRuntime::builtinTools, services);
  }

  /**
   * The tool dispatcher with the built-in tools (read_file, query_ledger, list_packages,
   * gate_check, write_file) and, with CP_AGENTS_DIR, CP_TOOLS_PATH or tools registered in code,
   * the worker's Java and MCP tools.
   */
  public static ToolExecutor builtinTools(Deps deps) {
    return ToolDispatcher.withBuiltins(deps.catalog(), deps.ledgers(),
        IntegrityGates.of(deps.catalog(), deps.source(), deps.ledgers()), deps.toolSettings(),
        deps.agents().map(a -> a.tools(deps.javaToolTimeout())).orElse(List.of()));
  }

  /** Builds the runtime for {@code config} with the provider it selects. */
  public static PlaneRuntime open(PlaneConfig config, Function<Deps, ToolExecutor> tools) {
    return open(config, tools, ProcessServices.NONE);
  }

  /** Builds the runtime for {@code config} with the provider it selects and {@code tools}, for {@code services}. */
  public static PlaneRuntime open(PlaneConfig config, Function<Deps, ToolExecutor> tools, ProcessServices services) {
    // The offline model checks a "call <tool> {json}" against the tool's schema with the catalog's engine.
    SchemaValidator schemas = new SchemaValidator();
    LlmProvider provider = new ProviderFactory(() -> new OfflineProvider(schemas::validate)).create(config.provider());
    return open(config, provider, tools, Clock.systemUTC(), services);
  }

  /**
   * Builds the runtime with an explicit provider (tests: a fake or a MockWebServer-backed one).
   * The catalog comes from {@link PlaneConfig#loadCatalog()} (the built-in one, plus CP_RESOURCES_DIR), or, with
   * CP_AGENTS_DIR or CP_TOOLS_PATH, from {@link PlaneAgents}: the tool registry checked, the defined agents added.
   */
  public static PlaneRuntime open(PlaneConfig config, LlmProvider provider, Function<Deps, ToolExecutor> tools,
      Clock clock) {
    return open(config, provider, tools, clock, ProcessServices.NONE);
  }

  /**
   * Builds the runtime with an explicit provider, reporting to {@code services}' telemetry and
   * passing its fault hook to the activities.
   */
  public static PlaneRuntime open(PlaneConfig config, LlmProvider provider, Function<Deps, ToolExecutor> tools,
      Clock clock, ProcessServices services) {
    SecretMasker masker = services.masker() != null ? services.masker() : config.secretMasker();
    // The servers' secrets are masked before they start: a server that fails at start has its stderr logged.
    PlaneAgents agents = config.extended()
        ? PlaneAgents.open(config.agentSettings(), servers -> ServerSecrets.register(masker, servers)) : null;
    Catalog catalog = agents == null ? config.loadCatalog() : agents.catalog();
    try {
      ToolTimeouts.check(catalog, config.worker().toolStartToClose());
    } catch (RuntimeException e) {
      if (agents != null) {
        agents.close();
      }
      throw e;
    }
    if (agents != null) {
      AgentProviders.registerKeys(masker, agents.modelRoutes());
    }
    Ledgers ledgers;
    try {
      ledgers = new Ledgers(new PlaneLayout(config.ensureHome()), withProcessHooks(config.ledgers(), services), masker);
    } catch (RuntimeException e) {
      if (agents != null) {
        agents.close();
      }
      throw e;
    }
    OutputValidator validator = (schema, text) -> {
      try {
        return catalog.schemaValidator().validate(schema, PromptRenderer.parseModelJson(text));
      } catch (IllegalArgumentException e) {
        return List.of("$: " + e.getMessage());
      }
    };
    WorkerFallbacks.Chain chain = WorkerFallbacks.of(config.env(), config.provider());
    Map<String, cp.gateway.ProviderSelection> routes = new java.util.LinkedHashMap<>(chain.routes());
    routes.putAll(agents == null ? Map.of() : agents.modelRoutes());
    AgentProviders.registerKeys(masker, chain.routes());
    List<LlmProvider> providers = AgentProviders.of(provider, routes,
        () -> new OfflineProvider(catalog.schemaValidator()::validate));
    cp.gateway.TenantGuard tenants;
    try {
      tenants = TenantSpend.guard(config, clock);
    } catch (RuntimeException e) {
      ledgers.close();
      if (agents != null) {
        agents.close();
      }
      throw e;
    }
    Gateway gateway = new Gateway(providers, ledgers.hot(),
        new GatewayConfig(provider.id(), workerPrices(config, provider), chain.models(), chain.rateLimitWait()),
        validator,
        id -> new CircuitBreaker(id, config.breaker()), clock,
        ExchangeSpool.in(ledgers.layout().ledgerDirectory(cp.ledger.Tier.HOT), clock), services.telemetry(), tenants);
    gateway.breaker(provider.id()); // its cp_circuit_breaker_state gauge exists from the start (issue 14)
    java.util.Map<String, String> files = new java.util.HashMap<>();
    if (agents != null) {
      agents.definitions().definitions().forEach(d -> files.put(d.definition().agentClass(), d.file()));
    }
    java.util.List<String> unpriced = StartUpPrices.problems(catalog, new cp.activities.AgentPrices(catalog, gateway,
        config.provider().settings().map(s -> s.defaultModel()).orElse(null)), cp.model.ContractIds.PLANNED,
        chain.models(), files, tenants.keepsCaps());
    if (!unpriced.isEmpty()) {
      tenants.close();
      ledgers.close();
      if (agents != null) {
        agents.close();
      }
      throw new ConfigException(cp.gateway.PriceTable.PRICES_FILE, String.join("; ", unpriced));
    }
    ToolExecutor executor = tools.apply(new Deps(catalog, ledgers, config.catalogSource(),
        ToolSettings.fromEnv(config.env()), java.util.Optional.ofNullable(agents), config.javaToolTimeout()));
    return new PlaneRuntime(config, catalog, ledgers, provider, gateway, executor, clock, masker, services, agents,
        tenants);
  }

  /** The price table, with CP_PRICE_* for the models of the provider this runtime was given (an embedder's own). */
  private static cp.gateway.PriceTable workerPrices(PlaneConfig config, LlmProvider provider) {
    return config.prices().providerDefault(config.provider().type().id())
        .map(p -> config.prices().withProvider(provider.id(), p)).orElse(config.prices());
  }

  /**
   * The ledger settings with this process's collaborators where the settings name none: appends
   * reported to its telemetry's metrics, and its fault hook ({@code CP_FAULT_PAUSE}, test classpath
   * only). The ledger store itself never reaches for either (issue 21).
   */
  static LedgerSettings withProcessHooks(LedgerSettings settings, ProcessServices services) {
    LedgerHooks hooks = settings.hooks();
    if (hooks.observer() == AppendObserver.NONE) {
      Telemetry telemetry = services.telemetry();
      hooks = hooks.withObserver((tier, store, nanos) -> telemetry.metrics().ledgerAppend(tier, store, nanos));
    }
    if (hooks.faults() == FaultHook.NONE) {
      hooks = hooks.withFaults(services.faults());
    }
    return settings.withHooks(hooks);
  }

  /**
   * What a tool executor is built from; {@code source} is where the catalog was loaded from,
   * {@code toolSettings} the built-in tools' configuration from the environment, {@code agents} the
   * worker's Java and MCP tools (empty without CP_AGENTS_DIR, CP_TOOLS_PATH or tools registered in
   * code), {@code javaToolTimeout} the bound of a Java tool's call.
   */
  public record Deps(Catalog catalog, Ledgers ledgers, ResourceSource source, ToolSettings toolSettings,
      java.util.Optional<PlaneAgents> agents, java.time.Duration javaToolTimeout) {
    /** Deps without Java or MCP tools (tests that build an executor by hand). */
    public Deps(Catalog catalog, Ledgers ledgers, ResourceSource source, ToolSettings toolSettings) {
      this(catalog, ledgers, source, toolSettings, java.util.Optional.empty(), ToolTimeouts.DEFAULT_CALL);
    }
  }

  /** The agent definitions, Java tools and MCP servers of this worker, if it has any. */
  public java.util.Optional<PlaneAgents> agents() {
    return java.util.Optional.ofNullable(agents);
  }

  public PlaneConfig config() {
    return config;
  }

  /**
   * The masker every ledger entry of this runtime passes ({@link cp.ledger.MaskingLedgerStore}):
   * the process's configured secrets and the common patterns. Register a secret learned later (an
   * MCP server's env or header value) here, and it is masked from then on.
   */
  public SecretMasker masker() {
    return masker;
  }

  /** The telemetry and fault hook this runtime was built with. */
  public ProcessServices services() {
    return services;
  }

  public Catalog catalog() {
    return catalog;
  }

  public Ledgers ledgers() {
    return ledgers;
  }

  public Gateway gateway() {
    return gateway;
  }

  public LlmProvider provider() {
    return provider;
  }

  public ToolExecutor tools() {
    return tools;
  }

  /** The activity implementations to register on a worker. */
  public Object[] activities() {
    return activities.clone();
  }

  @Override
  public void close() {
    tenants.close();
    ledgers.close();
    if (agents != null) {
      agents.close();
    }
  }
}
