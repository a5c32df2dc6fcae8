package cp.agents;

import cp.contracts.Catalog;
import cp.contracts.CatalogRequirements;
import cp.contracts.ResourceSource;
import cp.contracts.SchemaValidator;
import cp.gateway.ProviderSelection;
import cp.tools.mcp.McpConnection;
import cp.tools.mcp.McpServerSpec;
import cp.tools.mcp.McpSettings;
import cp.tools.mcp.McpToolInfo;
import cp.tools.mcp.McpStarts;
import cp.tools.Tool;
import cp.tools.mcp.McpToolCall;
import cp.tools.registry.ExposedNames;
import cp.tools.registry.JavaToolCall;
import cp.tools.registry.JavaToolRunner;
import cp.tools.registry.JavaTool;
import cp.tools.registry.JavaToolPath;
import cp.tools.registry.RegisteredTool;
import cp.tools.registry.ToolOrigin;
import cp.tools.registry.ToolRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's agents and tools, assembled once at start: the Java tools of {@code CP_TOOLS_PATH},
 * the catalog (built-in resources, plus {@code CP_RESOURCES_DIR}), the definitions of
 * {@code CP_AGENTS_DIR}, their MCP servers (started, their tools listed), the one tool registry
 * over all of them, and the catalog with the defined agents added.
 *
 * <p>Any error stops the start with every problem listed: a bad jar or descriptor, duplicate tool
 * names, a bad resource file, a bad definition. An MCP server that cannot be started or reached is
 * not an error: it gets one log line, its tools are not offered until it answers (the wiring task
 * starts it again on a call). Close it to stop the servers and release the jars.
 */
public final class PlaneAgents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PlaneAgents.class);

  /**
   * What the assembly reads.
   *
   * @param resources where the catalog's files come from
   * @param agentsDir CP_AGENTS_DIR, if set
   * @param toolsPath CP_TOOLS_PATH, if set (else null or blank)
   * @param env the worker's environment (${NAME}, api_key_env, PATH; a stdio server gets only a minimal part of it)
   * @param codeTools Java tools registered in code (an embedding application's), beside CP_TOOLS_PATH's
   * @param codeDefinitions agent definitions registered in code, checked with CP_AGENTS_DIR's as one set
   * @param provider the worker's provider, which a definition's {@code model} defaults to
   */
  public record Settings(ResourceSource resources, Optional<Path> agentsDir, String toolsPath, Map<String, String> env,
      McpSettings mcp, List<JavaTool> codeTools, List<DefinitionSource> codeDefinitions, ProviderSelection provider) {
    public Settings {
      Objects.requireNonNull(resources, "resources");
      agentsDir = agentsDir == null ? Optional.empty() : agentsDir;
      env = Map.copyOf(env);
      Objects.requireNonNull(mcp, "mcp");
      codeTools = codeTools == null ? List.of() : List.copyOf(codeTools);
      codeDefinitions = codeDefinitions == null ? List.of() : List.copyOf(codeDefinitions);
      provider = provider == null ? ProviderSelection.offline("no worker provider given") : provider;
    }

    /** Settings without definitions registered in code, for an offline worker. */
    public Settings(ResourceSource resources, Optional<Path> agentsDir, String toolsPath, Map<String, String> env,
        McpSettings mcp, List<JavaTool> codeTools) {
      this(resources, agentsDir, toolsPath, env, mcp, codeTools, List.of(), null);
    }

    /** Settings for an offline worker. */
    public Settings(ResourceSource resources, Optional<Path> agentsDir, String toolsPath, Map<String, String> env,
        McpSettings mcp, List<JavaTool> codeTools, List<DefinitionSource> codeDefinitions) {
      this(resources, agentsDir, toolsPath, env, mcp, codeTools, codeDefinitions, null);
    }
  }

  private final Catalog catalog;
  private final ToolRegistry registry;
  private final JavaToolPath javaPath;
  private final List<JavaTool> javaTools;
  private final List<McpConnection> connections;
  private final AgentDefinitions.Result definitions;
  /** Runs the Java tools' calls, each on a thread of its own so that one that hangs can be abandoned. */
  private final JavaToolRunner runner = new JavaToolRunner();

  private final AgentModels models;

  private PlaneAgents(Catalog catalog, ToolRegistry registry, JavaToolPath javaPath, List<JavaTool> javaTools,
      List<McpConnection> connections, AgentDefinitions.Result definitions, AgentModels models) {
    this.models = models;
    this.catalog = catalog;
    this.registry = registry;
    this.javaPath = javaPath;
    this.javaTools = List.copyOf(javaTools);
    this.connections = List.copyOf(connections);
    this.definitions = definitions;
  }

  /**
   * Assembles everything.
   *
   * @throws cp.tools.registry.ToolRegistryException for a bad jar, descriptor or duplicate tool name
   * @throws cp.contracts.CatalogException for a bad resource file or a defined agent the catalog refuses
   * @throws AgentDefinitionException for errors in the definitions
   */
  public static PlaneAgents open(Settings s) {
    return open(s, servers -> { });
  }

  /**
   * Assembles everything, handing {@code beforeServersStart} the MCP servers about to be started
   * (the worker registers their secrets on its masker there: a server that fails at start has its
   * stderr logged, and that line must already be masked).
   */
  public static PlaneAgents open(Settings s, java.util.function.Consumer<List<McpServerSpec>> beforeServersStart) {
    JavaToolPath path = JavaToolPath.load(s.toolsPath(), PlaneAgents.class.getClassLoader(), new SchemaValidator());
    List<McpConnection> connections = new ArrayList<>();
    try {
      List<JavaTool> javaTools = new ArrayList<>(s.codeTools());
      javaTools.addAll(path.tools());
      List<RegisteredTool> local = new ArrayList<>(ToolRegistry.builtins());
      javaTools.forEach(t -> local.add(t.registered()));
      ToolRegistry base = ToolRegistry.of(local);
      Catalog files = Catalog.load(s.resources(), CatalogRequirements.SHIPPED.withTools(base));
      AgentDefinitions.Result defs = definitions(s, files, base);
      defs.warnings().forEach(w -> LOG.warn("{}", w));
      if (!defs.ok()) {
        throw new AgentDefinitionException(defs.errors());
      }
      List<RegisteredTool> all = new ArrayList<>(local);
      beforeServersStart.accept(defs.servers());
      defs.servers().forEach(spec -> connections.add(new McpConnection(spec, s.env(), s.mcp())));
      // All at once: N servers that hang at start cost one start timeout, not N.
      List<Optional<cp.tools.mcp.McpToolList>> listed = McpStarts.startAll(connections, (c, e) -> LOG.warn(
          "mcp server {} ({}) cannot be reached at start: {}; its tools are not offered until it answers",
          c.spec().name(), c.spec().describe(), e.reason()));
      for (int i = 0; i < connections.size(); i++) {
        McpServerSpec spec = connections.get(i).spec();
        listed.get(i).ifPresent(l -> l.tools().forEach(t -> all.add(registered(spec, t))));
      }
      ToolRegistry registry = ToolRegistry.of(all);
      AgentModels models = AgentModels.of(defs.definitions(), s.env(), s.provider());
      Catalog catalog = files.withAgents(defs.definitions().stream()
          .map(d -> DefinitionConfigs.toAgent(d, registry, files, models.of(d.agentClass()))).toList(), registry);
      return new PlaneAgents(catalog, registry, path, javaTools, connections, defs, models);
    } catch (RuntimeException e) {
      McpStarts.closeAll(connections);
      closeQuietly(path);
      throw e;
    }
  }

  /** CP_AGENTS_DIR's definitions and those registered in code, checked as one set. */
  private static AgentDefinitions.Result definitions(Settings s, Catalog files, ToolRegistry base) {
    AgentDefinitions.Result fromDir = s.agentsDir()
        .map(dir -> AgentDefinitions.check(dir, files, base, s.env()))
        .orElse(new AgentDefinitions.Result(List.of(), List.of()));
    if (s.codeDefinitions().isEmpty()) {
      return fromDir;
    }
    List<DefinitionSource> all = new ArrayList<>();
    fromDir.definitions().forEach(d -> d.source().ifPresent(all::add));
    all.addAll(s.codeDefinitions());
    List<DefinitionProblem> problems = new ArrayList<>(fromDir.problems());
    AgentDefinitions.Result together = AgentDefinitions.check(all, files, base, s.env());
    // The directory's files were checked once already: keep their problems, add the code's (and clashes).
    together.problems().stream().filter(p -> !problems.contains(p)).forEach(problems::add);
    return new AgentDefinitions.Result(together.definitions(), problems);
  }

  private static RegisteredTool registered(McpServerSpec spec, McpToolInfo t) {
    return new RegisteredTool(spec.name() + ToolRegistry.MCP_SEPARATOR + t.name(), ExposedNames.ofMcp(spec.name(),
        t.name()), ToolOrigin.mcp(spec.name()), spec.describe(), t.description(), Optional.of(t.inputSchema()));
  }

  public Catalog catalog() {
    return catalog;
  }

  /**
   * The Java and MCP tools as the dispatcher runs them, beside the built-in ones: each Java tool
   * on this assembly's runner, bounded by {@code javaTimeout} unless the calling agent gives it a
   * {@code timeout_seconds}; each MCP tool of the registry on its server's connection.
   */
  public List<Tool> tools(Duration javaTimeout) {
    List<Tool> out = new ArrayList<>();
    javaTools.forEach(t -> out.add(new JavaToolCall(t, runner, javaTimeout)));
    Map<String, McpConnection> byServer = new java.util.HashMap<>();
    connections.forEach(c -> byServer.put(c.spec().name(), c));
    for (RegisteredTool t : registry.all()) {
      if (t.origin().kind() == ToolOrigin.Kind.MCP) {
        String own = t.name().substring(t.origin().server().length() + ToolRegistry.MCP_SEPARATOR.length());
        out.add(new McpToolCall(byServer.get(t.origin().server()), own));
      }
    }
    return out;
  }

  /** The providers the defined agents' own models need beside the worker's, by gateway id. */
  public Map<String, ProviderSelection> modelRoutes() {
    return models.routes();
  }

  public ToolRegistry registry() {
    return registry;
  }

  public List<JavaTool> javaTools() {
    return javaTools;
  }

  public List<McpConnection> connections() {
    return connections;
  }

  public AgentDefinitions.Result definitions() {
    return definitions;
  }

  @Override
  public void close() {
    runner.close();
    McpStarts.closeAll(connections); // at once: each may wait for its server to exit
    closeQuietly(javaPath);
  }

  private static void closeQuietly(JavaToolPath p) {
    try {
      p.close();
    } catch (java.io.IOException e) {
      LOG.debug("closing the tool jars: {}", e.getMessage());
    }
  }
}
