package cp.cli;

import cp.agents.AgentDefinition;
import cp.agents.AgentDefinitions;
import cp.agents.CheckedDefinition;
import cp.agents.DefinitionProblem;
import cp.agents.PlaneAgents;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.SchemaValidator;
import cp.contracts.ToolSpec;
import cp.tools.BuiltinTools;
import cp.tools.mcp.McpConnection;
import cp.tools.registry.JavaToolPath;
import cp.tools.registry.RegisteredTool;
import cp.tools.registry.ToolRegistry;
import cp.worker.PlaneConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cpctl agents}: every agent class the worker would run (built in or defined), with its
 * model, tools (MCP tools as their servers list them), approval policy and budgets; and
 * {@code cpctl agents check [DIR]}, which checks definitions with no worker and no provider.
 */
@Command(name = "agents", mixinStandardHelpOptions = true, subcommands = AgentsCommand.Check.class,
    description = "List the agent classes (built in and CP_AGENTS_DIR) with model, tools, approval and budgets.")
final class AgentsCommand extends MaskedCliCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    PlaneConfig cfg = config();
    if (!cfg.extended()) {
      print(cfg, cfg.loadCatalog(), ToolRegistry.ofBuiltins(), null);
      return Cpctl.OK;
    }
    // Log lines (a server that fails at start has its stderr logged) mask the servers' secrets too.
    cp.observability.SecretMasker masker = cfg.secretMasker();
    try (PlaneAgents agents = PlaneAgents.open(cfg.agentSettings(), servers -> {
      cp.worker.ServerSecrets.register(masker, servers);
      MaskingEncoder.useEverywhere(masker);
    })) {
      print(cfg, agents.catalog(), agents.registry(), agents);
    }
    return Cpctl.OK;
  }

  private void print(PlaneConfig cfg, Catalog catalog, ToolRegistry registry, PlaneAgents agents) {
    String workerModel = cfg.provider().type().id() + cfg.provider().settings().map(s -> " " + s.defaultModel())
        .orElse("");
    for (AgentConfig a : catalog.agents()) {
      Optional<CheckedDefinition> def = agents == null ? Optional.empty() : agents.definitions().definitions().stream()
          .filter(d -> d.agentClass().equals(a.agentClass())).findFirst();
      out().println(a.agentClass() + "  (" + def.map(d -> "defined in " + d.file())
          .orElse("built in: " + catalog.agentFile(a.agentClass()).orElse("?")) + ")");
      out().println("  model:    " + def.map(d -> model(d.definition(), workerModel)).orElse("the worker's (" + workerModel + ")")
          + catalog.model(a.agentClass()).provider().map(p -> "; EXCHANGE names it " + p).orElse(""));
      List<String> tools = new ArrayList<>();
      for (ToolSpec t : a.tools()) {
        String origin = registry.find(t.toolId()).map(r -> r.origin().wireName()).orElse("unknown");
        boolean approval = t.approvalRequired(BuiltinTools.WRITING);
        tools.add(t.toolId() + " [" + origin + (approval ? ", approval required within "
            + t.effectiveApprovalTimeoutSeconds() + " s" : "") + "]");
      }
      out().println("  tools:    " + (tools.isEmpty() ? "none" : String.join(", ", tools)));
      def.ifPresent(d -> servers(d, agents));
      var b = a.budget();
      out().println("  budget:   session " + b.sessionTokenLimit() + " tokens, work order " + b.woTokenBudget()
          + " tokens, " + b.turnLimit() + " turns" + def.map(d -> usd(d.definition().budget())).orElse(""));
    }
  }

  private void servers(CheckedDefinition d, PlaneAgents agents) {
    for (var spec : d.servers()) {
      Optional<McpConnection> c = agents.connections().stream().filter(x -> x.spec().name().equals(spec.name()))
          .findFirst();
      String state = c.filter(McpConnection::alive).map(x -> x.tools().tools().size() + " tools listed, hash "
          + x.tools().hash().substring(0, 12)).orElseGet(() -> "not reachable now" + c.flatMap(
              McpConnection::startFailure).map(why -> ": " + why).orElse("") + "; its tools are listed when it answers");
      out().println("  mcp:      " + spec.name() + ": " + spec.describe() + " (" + state + ")");
      c.filter(McpConnection::alive).ifPresent(x -> x.tools().leftOut().forEach(l -> out().println(
          "            left out: " + spec.name() + "/" + l.tool() + ": " + l.problem())));
    }
  }

  private static String model(AgentDefinition d, String workerModel) {
    AgentDefinition.Model m = d.model();
    if (m == null) {
      return "the worker's (" + workerModel + ")";
    }
    String text = (m.provider() == null ? "the worker's provider" : m.provider()) + " "
        + (m.name() == null ? "(its default model)" : m.name())
        + (m.baseUrl() == null ? "" : " at " + m.baseUrl())
        + (m.apiKeyEnv() == null ? "" : ", key from $" + m.apiKeyEnv());
    return text + (d.maxTokens() == null ? "" : ", max_tokens " + d.maxTokens())
        + (d.fallback().isEmpty() ? "" : ", " + d.fallback().size() + " fallback model(s)");
  }

  private static String usd(AgentDefinition.Budget b) {
    return (b.sessionUsd() == null ? "" : ", session " + b.sessionUsd() + " USD")
        + (b.workOrderUsd() == null ? "" : ", work order " + b.workOrderUsd() + " USD");
  }

  /** {@code cpctl agents check [DIR]}: one line per problem, exit 2 on any error. */
  @Command(name = "check", mixinStandardHelpOptions = true,
      description = "Check agent definitions with no worker and no provider: one line per problem"
          + " (file: key: what is wrong); exit 2 on any error, 0 when clean (warnings do not fail).")
  static final class Check extends MaskedCliCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "DIR", description = "The directory (default: CP_AGENTS_DIR).")
    Path dir;

    @Override
    public Integer call() throws Exception {
      PlaneConfig cfg = config();
      Path target = dir != null ? dir.toAbsolutePath().normalize() : cfg.agentsDir().orElseThrow(() ->
          new Cpctl.UsageException("no directory to check: give DIR or set " + AgentDefinitions.VARIABLE));
      try (JavaToolPath java = JavaToolPath.load(cfg.toolsPath(), getClass().getClassLoader(), new SchemaValidator())) {
        List<RegisteredTool> tools = new ArrayList<>(ToolRegistry.builtins());
        java.tools().forEach(t -> tools.add(t.registered()));
        ToolRegistry registry = ToolRegistry.of(tools);
        Catalog catalog = Catalog.load(cfg.catalogSource(), PlaneConfig.CATALOG_REQUIREMENTS.withTools(registry));
        AgentDefinitions.Result checked = AgentDefinitions.check(target, catalog, registry, env());
        List<DefinitionProblem> unpriced = cp.agents.DefinitionPrices.check(checked.read(), cfg.prices(),
            cfg.provider().type().id());
        List<DefinitionProblem> all = new ArrayList<>(checked.problems());
        all.addAll(unpriced);
        AgentDefinitions.Result r = new AgentDefinitions.Result(checked.definitions().stream()
            .filter(d -> unpriced.stream().noneMatch(p -> p.file().equals(d.file()))).toList(), all);
        for (DefinitionProblem p : r.problems()) {
          out().println(p);
        }
        int errors = r.errors().size();
        err().println(target + ": " + r.definitions().size() + " agent definition(s) valid, " + errors + " error(s), "
            + r.warnings().size() + " warning(s)");
        return errors == 0 ? Cpctl.OK : Cpctl.BAD_INPUT;
      }
    }
  }
}
