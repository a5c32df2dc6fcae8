package cp.agents;

import cp.contracts.Catalog;
import cp.contracts.CatalogRequirements;
import cp.contracts.ResourceSource;
import cp.contracts.SchemaValidator;
import cp.tools.mcp.McpConnection;
import cp.tools.mcp.McpServerSpec;
import cp.tools.mcp.McpSettings;
import cp.tools.mcp.McpToolInfo;
import cp.tools.mcp.McpUnavailableException;
import cp.tools.registry.ExposedNames;
import cp.tools.registry.JavaTool;
import cp.tools.registry.JavaToolPath;
import cp.tools.registry.RegisteredTool;
import cp.tools.registry.ToolOrigin;
import cp.tools.registry.ToolRegistry;
import java.nio.file.Path;
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
   */
  public record Settings(ResourceSource resources, Optional<Path> agentsDir, String toolsPath, Map<String, String> env,
      McpSettings mcp, List<JavaTool> codeTools) {
    public Settings {
      Objects.requireNonNull(resources, "resources");
      agentsDir = agentsDir == null ? Optional.empty() : agentsDir;
      env = Map.copyOf(env);
      Objects.requireNonNull(mcp, "mcp");
      codeTools = codeTools == null ? List.of() : List.copyOf(codeTools);
    }
  }

  private final Catalog catalog;
  private final ToolRegistry registry;
  private final JavaToolPath javaPath;
  private final List<JavaTool> javaTools;
  private final List<McpConnection> connections;
  private final AgentDefinitions.Result definitions;

  private PlaneAgents(Catalog catalog, ToolRegistry registry, JavaToolPath javaPath, List<JavaTool> javaTools,
      List<McpConnection> connections, AgentDefinitions.Result definitions) {
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
    JavaToolPath path = JavaToolPath.load(s.toolsPath(), PlaneAgents.class.getClassLoader(), new SchemaValidator());
    List<McpConnection> connections = new ArrayList<>();
    try {
      List<JavaTool> javaTools = new ArrayList<>(s.codeTools());
      javaTools.addAll(path.tools());
      List<RegisteredTool> local = new ArrayList<>(ToolRegistry.builtins());
      javaTools.forEach(t -> local.add(t.registered()));
      ToolRegistry base = ToolRegistry.of(local);
      Catalog files = Catalog.load(s.resources(), CatalogRequirements.SHIPPED.withTools(base));
      AgentDefinitions.Result defs = s.agentsDir()
          .map(dir -> AgentDefinitions.check(dir, files, base, s.env()))
          .orElse(new AgentDefinitions.Result(List.of(), List.of()));
      defs.warnings().forEach(w -> LOG.warn("{}", w));
      if (!defs.ok()) {
        throw new AgentDefinitionException(defs.errors());
      }
      List<RegisteredTool> all = new ArrayList<>(local);
      for (McpServerSpec spec : defs.servers()) {
        McpConnection c = new McpConnection(spec, s.env(), s.mcp());
        connections.add(c);
        try {
          c.start().tools().forEach(t -> all.add(registered(spec, t)));
        } catch (McpUnavailableException e) {
          LOG.warn("mcp server {} ({}) cannot be reached at start: {}; its tools are not offered until it answers",
              spec.name(), spec.describe(), e.reason());
        }
      }
      ToolRegistry registry = ToolRegistry.of(all);
      Catalog catalog = files.withAgents(defs.definitions().stream()
          .map(d -> DefinitionConfigs.toAgent(d, registry, files)).toList(), registry);
      return new PlaneAgents(catalog, registry, path, javaTools, connections, defs);
    } catch (RuntimeException e) {
      connections.forEach(McpConnection::close);
      closeQuietly(path);
      throw e;
    }
  }

  private static RegisteredTool registered(McpServerSpec spec, McpToolInfo t) {
    return new RegisteredTool(spec.name() + ToolRegistry.MCP_SEPARATOR + t.name(), ExposedNames.ofMcp(spec.name(),
        t.name()), ToolOrigin.mcp(spec.name()), spec.describe(), t.description(), Optional.of(t.inputSchema()));
  }

  public Catalog catalog() {
    return catalog;
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
    connections.forEach(McpConnection::close);
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
