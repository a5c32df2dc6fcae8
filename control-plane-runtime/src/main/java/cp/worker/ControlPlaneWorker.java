package cp.worker;

import cp.agents.DefinitionSource;
import cp.gateway.LlmProvider;
import cp.tools.registry.JavaTool;
import cp.tools.spi.ToolBinding;
import cp.tools.spi.ToolProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Control Plane worker embedded in an application's own {@code main()}: the plane's workflows
 * and activities, with Java tools and agent definitions registered in code beside those the
 * environment names ({@code CP_TOOLS_PATH}, {@code CP_AGENTS_DIR}). {@code cpctl worker} builds
 * its worker with this builder too (with its configuration and process services, adding the
 * operator's endpoints, readiness and drain around it).
 *
 * <pre>{@code
 * try (ControlPlaneWorker worker = ControlPlaneWorker.builder()
 *     .temporal("127.0.0.1:7233", "default")
 *     .tool(ToolBinding.of("get_weather", "Current weather for a city.", WeatherArgs.class,
 *         (args, ctx) -> ToolCallResult.text(args.city() + ": 21 C, sunny")))
 *     .agent("weather.yaml", """
 *         agent_class: WEATHER
 *         instructions: You tell the weather.
 *         tools: [get_weather]
 *         """)
 *     .build()
 *     .start()) {
 *   worker.awaitShutdown();
 * }
 * }</pre>
 *
 * <p>{@link Builder#build()} does everything that can fail before any workflow runs: reads the
 * configuration, checks every tool and definition (the same checks as the environment's, one
 * message listing every problem), starts the MCP servers, opens the ledgers and connects to
 * Temporal. {@link #start()} starts polling. Without a Temporal address the worker runs an
 * in-process Temporal service of its own (as {@code cpctl chat} does), which lives as long as the
 * worker.
 */
public final class ControlPlaneWorker implements AutoCloseable {
  private final PlaneConfig config;
  private final PlaneRuntime runtime;
  private final TemporalConnection connection;
  private final String role;
  private PlaneWorker worker;
  private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

  private ControlPlaneWorker(PlaneConfig config, PlaneRuntime runtime, TemporalConnection connection, String role) {
    this.config = config;
    this.runtime = runtime;
    this.connection = connection;
    this.role = role;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts polling the plane's task queue; against the in-process service this is its sole worker.
   *
   * @return this worker, started
   */
  public synchronized ControlPlaneWorker start() {
    if (worker != null) {
      throw new IllegalStateException("the worker is already started");
    }
    worker = connection.isEmbedded() ? PlaneWorker.startSoleWorker(connection, runtime, role)
        : PlaneWorker.start(connection, runtime, role);
    return this;
  }

  /** Waits until {@link #close()} is called (from another thread, or a shutdown hook). */
  public void awaitShutdown() throws InterruptedException {
    closed.await();
  }

  public PlaneConfig config() {
    return config;
  }

  /** The catalog, ledgers, gateway, tools and activities this worker runs. */
  public PlaneRuntime runtime() {
    return runtime;
  }

  /** Its connection to Temporal: a client for this worker's service ({@code connection().client()}). */
  public TemporalConnection connection() {
    return connection;
  }

  /** The started worker, or null before {@link #start()}. */
  public synchronized PlaneWorker worker() {
    return worker;
  }

  /** Stops polling (running activities get the graceful shutdown's grace), disconnects, stops the MCP servers. */
  @Override
  public synchronized void close() {
    try {
      if (worker != null) {
        worker.close();
      }
    } finally {
      try {
        connection.close();
      } finally {
        runtime.close();
        closed.countDown();
      }
    }
  }

  /** Builds a {@link ControlPlaneWorker}; every setting defaults from the environment. */
  public static final class Builder {
    private Map<String, String> env = new HashMap<>(System.getenv());
    private final List<JavaTool> tools = new ArrayList<>();
    private final List<DefinitionSource> definitions = new ArrayList<>();
    private LlmProvider provider;
    private Clock clock = Clock.systemUTC();
    private String role = "worker";
    private PlaneConfig config;
    private ProcessServices services = ProcessServices.NONE;

    private Builder() {}

    /** Reads the configuration from {@code env} instead of the process's environment. */
    public Builder environment(Map<String, String> environment) {
      this.env = new HashMap<>(Objects.requireNonNull(environment, "environment"));
      return this;
    }

    /** Sets one variable of the configuration ({@code CP_HOME}, {@code CP_PROVIDER}, ...), over the environment's. */
    public Builder set(String variable, String value) {
      env.put(Objects.requireNonNull(variable, "variable"), Objects.requireNonNull(value, "value of " + variable));
      return this;
    }

    /** The Temporal service: {@code host:port} and namespace ({@code TEMPORAL_ADDRESS}, {@code TEMPORAL_NAMESPACE}). */
    public Builder temporal(String address, String namespace) {
      set("TEMPORAL_ADDRESS", address);
      return set("TEMPORAL_NAMESPACE", namespace);
    }

    /** No Temporal service: the worker runs one in-process, for as long as it lives. */
    public Builder embeddedTemporal() {
      env.remove("TEMPORAL_ADDRESS");
      return this;
    }

    /** The plane root: where the ledgers are ({@code CP_HOME}). */
    public Builder home(Path home) {
      return set("CP_HOME", home.toString());
    }

    /** A Java tool, registered in code beside CP_TOOLS_PATH's; its name must be unique among all tools. */
    public Builder tool(ToolBinding tool) {
      tools.add(new JavaTool(Objects.requireNonNull(tool, "tool"), "registered in code"));
      return this;
    }

    /** Every tool of {@code provider}, as {@link #tool} registers one. */
    public Builder tools(ToolProvider provider) {
      List<ToolBinding> bindings = Objects.requireNonNull(provider, "provider").tools();
      if (bindings == null || bindings.isEmpty()) {
        throw new IllegalArgumentException("tool provider " + provider.getClass().getName() + " offers no tools");
      }
      String source = "registered in code (" + provider.getClass().getName() + ")";
      bindings.forEach(b -> tools.add(new JavaTool(Objects.requireNonNull(b, "a tool of " + source), source)));
      return this;
    }

    /**
     * An agent definition, as a definition file of CP_AGENTS_DIR would hold it (YAML, or JSON when
     * {@code name} ends in {@code .json}); {@code name} is how messages name it.
     */
    public Builder agent(String name, String definition) {
      definitions.add(DefinitionSource.ofText(name, definition));
      return this;
    }

    /** An agent definition file (its {@code instructions_file} and {@code cwd} are relative to it). */
    public Builder agent(Path file) {
      definitions.add(DefinitionSource.of(file));
      return this;
    }

    /** The directory of agent definitions ({@code CP_AGENTS_DIR}). */
    public Builder agentsDir(Path dir) {
      return set("CP_AGENTS_DIR", dir.toAbsolutePath().toString());
    }

    /** A model provider of the application's own (a test's fake), instead of the one the configuration selects. */
    public Builder provider(LlmProvider llm) {
      this.provider = Objects.requireNonNull(llm, "provider");
      return this;
    }

    /**
     * A configuration already read (what {@code cpctl worker} has, with the variables it checked);
     * {@link #environment}, {@link #set} and the like are then not read.
     */
    public Builder config(PlaneConfig given) {
      this.config = Objects.requireNonNull(given, "config");
      return this;
    }

    /** The process's telemetry, fault hook and secret masker (default: none, and a masker of the configuration's). */
    public Builder services(ProcessServices given) {
      this.services = Objects.requireNonNull(given, "services");
      return this;
    }

    /** The clock of the ledgers and the gateway (tests). */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /** The worker's role in its Temporal identity ({@code pid@host/role}); default {@code worker}. */
    public Builder role(String name) {
      this.role = Objects.requireNonNull(name, "role");
      return this;
    }

    /**
     * Reads and checks everything, opens the ledgers, starts the MCP servers and connects.
     *
     * @throws ConfigException for a bad variable
     * @throws cp.tools.registry.ToolRegistryException for a bad or duplicate tool
     * @throws cp.agents.AgentDefinitionException for a bad definition
     * @throws cp.contracts.CatalogException for a bad resource file
     */
    public ControlPlaneWorker build() {
      PlaneConfig base = config != null ? config : PlaneConfig.fromEnv(env);
      PlaneConfig config = tools.isEmpty() && definitions.isEmpty() ? base
          : base.withExtensions(new PlaneExtensions(tools, definitions));
      PlaneRuntime runtime = provider == null ? PlaneRuntime.open(config, PlaneRuntime::builtinTools, services)
          : PlaneRuntime.open(config, provider, PlaneRuntime::builtinTools, clock, services);
      TemporalConnection connection;
      try {
        connection = TemporalConnection.open(config, services.telemetry());
        connection.ensureSearchAttributes();
      } catch (RuntimeException e) {
        runtime.close();
        throw e;
      }
      return new ControlPlaneWorker(config, runtime, connection, role);
    }
  }
}
