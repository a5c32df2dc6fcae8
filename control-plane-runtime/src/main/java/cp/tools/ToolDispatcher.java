package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.CatalogEntryNotFoundException;
import cp.contracts.ToolSpec;
import cp.ledger.LedgerException;
import cp.ledger.LedgerUnreachableException;
import cp.ledger.Ledgers;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a tool runs: checks that the agent and the work order offer it, validates its
 * arguments against the agent's schema for it, runs it, and turns every failure into a result.
 *
 * <p>Checks, in order: the tool is in the agent's configuration, then in the work order's
 * allowed list ({@code tool_not_allowed}), then this worker implements it ({@code tool_unknown}),
 * then every argument string is plain text ({@link ArgumentText}: no NUL or other control
 * character, no unpaired surrogate) and the arguments satisfy its {@code parameters} schema, every
 * violation reported ({@code invalid_arguments}). A {@link PathRefusedException} becomes a refused
 * result with its code; a {@link ToolException} a {@code tool_failure} with its message; any other
 * exception a {@code tool_failure} that says only that an internal error happened and its
 * incident id: its class, message and stack go to the worker log, never to the model (a database
 * error names the JDBC URL). A ledger database that cannot be reached is no tool failure: it is
 * thrown on, and the activity waits for the database. The tool runs with a {@link ToolContext}
 * that carries the calling session. Built once per worker and shared by activity threads.
 */
public final class ToolDispatcher implements ToolExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(ToolDispatcher.class);

  /** Tool ids and exception messages are quoted up to this length in results. */
  static final int MAX_QUOTED_CHARS = 300;
  /** Hex characters of an incident id: enough to find one log line among a day's. */
  static final int INCIDENT_ID_CHARS = 8;

  private final Catalog catalog;
  private final Ledgers ledgers;
  private final Map<String, Tool> tools;
  /** One context per agent class (its path policy is built once); each call gets its own session. */
  private final Map<String, ToolContext> contexts = new ConcurrentHashMap<>();

  /**
   * @param tools the implementations this worker offers; ids must be unique
   * @throws IllegalArgumentException when two tools share an id
   */
  public ToolDispatcher(Catalog catalog, Ledgers ledgers, List<Tool> tools) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.ledgers = Objects.requireNonNull(ledgers, "ledgers");
    Map<String, Tool> byId = new LinkedHashMap<>();
    for (Tool t : tools) {
      if (byId.putIfAbsent(t.id(), t) != null) {
        throw new IllegalArgumentException("two tool implementations share the id '" + t.id()
            + "'; each tool id must be registered once");
      }
    }
    this.tools = Map.copyOf(byId);
  }

  /** A dispatcher with every built-in tool ({@link BuiltinTools}), configured by {@code settings}. */
  public static ToolDispatcher withBuiltins(Catalog catalog, Ledgers ledgers, IntegrityGates gates,
      ToolSettings settings) {
    return new ToolDispatcher(catalog, ledgers, BuiltinTools.all(catalog, gates, settings));
  }

  /** A dispatcher with every built-in tool at its default settings. */
  public static ToolDispatcher withBuiltins(Catalog catalog, Ledgers ledgers, IntegrityGates gates) {
    return withBuiltins(catalog, ledgers, gates, ToolSettings.DEFAULTS);
  }

  /**
   * A dispatcher with every built-in tool and {@code more} (the worker's Java and MCP tools,
   * {@link cp.tools.registry.RegistryTools}).
   */
  public static ToolDispatcher withBuiltins(Catalog catalog, Ledgers ledgers, IntegrityGates gates,
      ToolSettings settings, List<Tool> more) {
    List<Tool> all = new java.util.ArrayList<>(BuiltinTools.all(catalog, gates, settings));
    all.addAll(more);
    return new ToolDispatcher(catalog, ledgers, all);
  }

  @Override
  public String originOf(String toolId) {
    Tool t = toolId == null ? null : tools.get(toolId);
    return t == null ? Tool.BUILTIN : t.origin();
  }

  @Override
  public List<ToolListing> listings(java.util.Collection<String> toolIds) {
    Map<String, ToolListing> byOrigin = new LinkedHashMap<>();
    for (String id : toolIds) {
      Tool t = tools.get(id);
      if (t != null && !byOrigin.containsKey(t.origin())) {
        t.listing().ifPresent(l -> byOrigin.put(l.origin(), l));
      }
    }
    return List.copyOf(byOrigin.values());
  }

  @Override
  public ToolResult execute(String agentClass, String sessionId, String toolId, JsonNode arguments,
      List<String> allowedTools) {
    return execute(ToolInvocation.direct(agentClass, sessionId, toolId, arguments, allowedTools));
  }

  @Override
  public ToolResult execute(ToolInvocation call) {
    String agentClass = call.agentClass();
    String name = BoundedText.quote(call.toolId(), MAX_QUOTED_CHARS);
    try {
      return dispatch(call);
    } catch (PathRefusedException e) {
      return ToolResult.refused(e.code(), e.getMessage());
    } catch (ToolException e) {
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, name + " failed: "
          + BoundedText.firstLine(e.getMessage(), MAX_QUOTED_CHARS * 2));
    } catch (LedgerUnreachableException e) {
      throw e;
    } catch (RuntimeException e) {
      String incident = "TOOL-" + java.util.UUID.randomUUID().toString().substring(0, INCIDENT_ID_CHARS);
      LOG.warn("tool {} of agent {} failed (incident {})", name, agentClass, incident, e);
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, name + " failed with an internal error"
          + (e instanceof LedgerException ? ": the ledger could not be read" : "")
          + " (the worker log has the details under incident " + incident + "); try again, or tell the user");
    }
  }

  /**
   * The definitions the model is offered: the agent's configured tools that the work order
   * allows and this worker implements, in configuration order. A null {@code allowed} allows none.
   *
   * @throws CatalogEntryNotFoundException when the agent class is not configured
   */
  public List<ToolDefinition> definitions(String agentClass, List<String> allowed) {
    List<String> permitted = allowed == null ? List.of() : allowed;
    return catalog.agent(agentClass).tools().stream()
        .filter(t -> permitted.contains(t.toolId()) && tools.containsKey(t.toolId()))
        .map(ToolSpec::toDefinition)
        .toList();
  }

  private ToolResult dispatch(ToolInvocation call) {
    String agentClass = call.agentClass();
    String toolId = call.toolId();
    JsonNode arguments = call.arguments();
    List<String> allowed = call.allowedTools();
    String name = BoundedText.quote(toolId, MAX_QUOTED_CHARS);
    AgentConfig agent;
    try {
      agent = catalog.agent(agentClass);
    } catch (CatalogEntryNotFoundException e) {
      return ToolResult.refused(ToolErrorCodes.AGENT_UNKNOWN, "agent class '"
          + BoundedText.quote(agentClass, MAX_QUOTED_CHARS) + "' is not configured (known: "
          + String.join(", ", catalog.agentClasses()) + "); tool " + name + " was not run");
    }
    Optional<ToolSpec> spec = toolId == null ? Optional.empty() : agent.tool(toolId);
    if (spec.isEmpty()) {
      return ToolResult.refused(ToolErrorCodes.TOOL_NOT_ALLOWED, "tool '" + name + "' is not one of agent "
          + agent.agentClass() + "'s tools (" + String.join(", ", agent.toolIds()) + "); use one of those");
    }
    if (!allowed.contains(toolId)) {
      return ToolResult.refused(ToolErrorCodes.TOOL_NOT_ALLOWED, "tool '" + name + "' is not allowed in this "
          + "work order (allowed: " + (allowed.isEmpty() ? "none" : String.join(", ", allowed)) + ")");
    }
    Tool tool = tools.get(toolId);
    if (tool == null) {
      return ToolResult.refused(ToolErrorCodes.TOOL_UNKNOWN, "tool '" + name + "' is configured for agent "
          + agent.agentClass() + " but this worker has no implementation of it (implemented: "
          + String.join(", ", tools.keySet().stream().sorted().toList()) + ")");
    }
    JsonNode schema = spec.get().parameters();
    JsonNode args = arguments == null || arguments.isNull() || arguments.isMissingNode() ? Json.object() : arguments;
    Optional<String> notText = ArgumentText.problem(args);
    if (notText.isPresent()) {
      return ToolResult.refused(ToolErrorCodes.INVALID_ARGUMENTS, "invalid arguments for " + name + ": "
          + notText.get() + ". Expected " + ParameterSummary.of(schema));
    }
    List<String> violations = catalog.schemaValidator().validate(schema, args);
    if (!violations.isEmpty()) {
      return ToolResult.refused(ToolErrorCodes.INVALID_ARGUMENTS, "invalid arguments for " + name + ": "
          + violations.size() + (violations.size() == 1 ? " problem: " : " problems: ")
          + BoundedText.quote(String.join("; ", violations), MAX_QUOTED_CHARS * 4)
          + ". Expected " + ParameterSummary.of(schema));
    }
    ObjectNode withDefaults = ArgumentDefaults.apply(schema, args);
    ToolContext ctx = contexts.computeIfAbsent(agent.agentClass(), k -> ToolContext.of(agent, ledgers, null))
        .forCall(call);
    ToolResult result = tool.run(ctx, withDefaults);
    if (result == null) {
      return ToolResult.error(ToolErrorCodes.TOOL_FAILURE, name + " failed: it returned no result");
    }
    return result;
  }

}
