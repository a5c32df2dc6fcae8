package cp.agents;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.AgentBudget;
import cp.contracts.SchemaValidator;
import cp.contracts.ToolNamespace;
import cp.tools.mcp.McpServerSpec;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks of one definition a schema cannot express: instructions xor instructions_file,
 * models, grants and approval patterns against the known tools and the defined servers, the MCP
 * servers ({@link McpServerChecks}), budgets that nest, globs, and the output schema.
 */
final class DefinitionChecks {
  private final SchemaValidator validator;
  private final Map<String, String> env;
  private final ToolNamespace tools;

  /**
   * @param env the environment {@code ${NAME}}, {@code api_key_env} and PATH are read from
   * @param tools the built-in and Java tool names a grant may name without a server
   */
  DefinitionChecks(SchemaValidator validator, Map<String, String> env, ToolNamespace tools) {
    this.validator = validator;
    this.env = Map.copyOf(env);
    this.tools = tools;
  }

  /** The checked definition, or empty with every error (and warning) added to {@code problems}. */
  Optional<CheckedDefinition> check(String file, Path dir, AgentDefinition d, List<DefinitionProblem> problems) {
    List<DefinitionProblem> mine = new ArrayList<>();
    String instructions = instructions(file, dir, d, mine);
    model(file, "model", d.model(), mine);
    for (int i = 0; i < d.fallback().size(); i++) {
      model(file, "fallback[" + i + "]", d.fallback().get(i), mine);
    }
    McpServerChecks servers = new McpServerChecks(file, dir, env, mine);
    List<McpServerSpec> specs = new ArrayList<>();
    d.mcpServers().forEach((name, s) -> servers.check(name, s).ifPresent(specs::add));
    List<GrantPattern> grants = grants(file, d, mine);
    approvals(file, d, grants, mine);
    timeouts(file, d, grants, mine);
    budget(file, d.budget(), mine);
    globs(file, "permissions.read", d.permissions().read(), mine);
    globs(file, "permissions.write", d.permissions().write(), mine);
    outputSchema(file, d.outputSchema(), mine);
    problems.addAll(mine);
    if (mine.stream().anyMatch(p -> !p.warning())) {
      return Optional.empty();
    }
    return Optional.of(new CheckedDefinition(file, d, instructions, specs));
  }

  private String instructions(String file, Path dir, AgentDefinition d, List<DefinitionProblem> out) {
    if (d.instructions() != null && d.instructionsFile() != null) {
      out.add(error(file, "instructions_file", "give instructions or instructions_file, not both"));
      return "";
    }
    if (d.instructions() != null) {
      return d.instructions();
    }
    if (d.instructionsFile() == null) {
      out.add(error(file, "instructions", "is required: the agent's system prompt, as text (instructions) or in a"
          + " file next to the definition (instructions_file)"));
      return "";
    }
    Path p = dir.resolve(d.instructionsFile()).toAbsolutePath().normalize();
    if (!Files.isRegularFile(p)) {
      out.add(error(file, "instructions_file", p + " does not exist (a path relative to the definition)"));
      return "";
    }
    try {
      String text = Files.readString(p, StandardCharsets.UTF_8);
      if (text.isBlank()) {
        out.add(error(file, "instructions_file", p + " is empty"));
      }
      return text;
    } catch (IOException e) {
      out.add(error(file, "instructions_file", "cannot read " + p + ": " + e.getMessage()));
      return "";
    }
  }

  private void model(String file, String key, AgentDefinition.Model m, List<DefinitionProblem> out) {
    if (m == null) {
      return;
    }
    if (m.baseUrl() != null) {
      try {
        URI u = new URI(m.baseUrl());
        if (u.getScheme() == null || !u.getScheme().matches("https?") || u.getHost() == null) {
          out.add(error(file, key + ".base_url", "'" + m.baseUrl() + "' is not an http:// or https:// URL with a host"));
        }
      } catch (URISyntaxException e) {
        out.add(error(file, key + ".base_url", "malformed URL: " + e.getReason()));
      }
    }
    if (m.apiKeyEnv() != null && !env.containsKey(m.apiKeyEnv())) {
      out.add(new DefinitionProblem(file, key + ".api_key_env", m.apiKeyEnv() + " is not set in this environment;"
          + " the worker needs it to call the model", true));
    }
    if ("offline".equals(m.provider()) && (m.baseUrl() != null || m.apiKeyEnv() != null)) {
      out.add(error(file, key, "the offline provider takes no base_url or api_key_env"));
    }
  }

  private List<GrantPattern> grants(String file, AgentDefinition d, List<DefinitionProblem> out) {
    List<GrantPattern> grants = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < d.tools().size(); i++) {
      String text = d.tools().get(i);
      String key = "tools[" + i + "]";
      Integer earlier = seen.putIfAbsent(text, i);
      if (earlier != null) {
        out.add(error(file, key, "'" + text + "' is granted twice (also tools[" + earlier + "])"));
        continue;
      }
      Optional<GrantPattern> g = GrantPattern.parse(text);
      if (g.isEmpty()) {
        out.add(error(file, key, "bad pattern '" + text + "': " + GrantPattern.SYNTAX));
        continue;
      }
      if (g.get().mcp() && !d.mcpServers().containsKey(g.get().server())) {
        out.add(error(file, key, "'" + text + "' names MCP server '" + g.get().server() + "', which mcp_servers does"
            + " not define (defined: " + (d.mcpServers().isEmpty() ? "none" : String.join(", ", d.mcpServers().keySet()))
            + ")"));
        continue;
      }
      if (!g.get().mcp() && !tools.contains(text)) {
        out.add(error(file, key, "unknown tool '" + text + "' (known: " + String.join(", ", tools.names())
            + "; an MCP tool is <server>/<tool>)"));
        continue;
      }
      grants.add(g.get());
    }
    for (String server : d.mcpServers().keySet()) {
      if (grants.stream().noneMatch(g -> server.equals(g.server()))) {
        out.add(new DefinitionProblem(file, "mcp_servers." + server, "no tool of this server is granted (tools:"
            + " " + server + "/<tool> or " + server + "/*); it will not be started", true));
      }
    }
    return grants;
  }

  private void approvals(String file, AgentDefinition d, List<GrantPattern> grants, List<DefinitionProblem> out) {
    patternsOfGrantedTools(file, "approval", d.approval().keySet(), d, grants, out);
    Long timeout = d.approvalTimeoutSeconds();
    if (timeout != null && timeout >= AgentBudget.DEFAULT_TURN_TIMEOUT_SECONDS) {
      out.add(error(file, "approval_timeout_seconds", timeout + " s is not shorter than the turn's deadline of "
          + AgentBudget.DEFAULT_TURN_TIMEOUT_SECONDS + " s: the turn would be cancelled before the approval timed out"));
    }
  }

  /** Each {@code tool_timeout_seconds} pattern names granted tools, as an approval pattern must. */
  private static void timeouts(String file, AgentDefinition d, List<GrantPattern> grants, List<DefinitionProblem> out) {
    patternsOfGrantedTools(file, "tool_timeout_seconds", d.toolTimeoutSeconds().keySet(), d, grants, out);
  }

  /** Each pattern (a key of the map at {@code mapKey}) is well formed and names at least one granted tool. */
  private static void patternsOfGrantedTools(String file, String mapKey, java.util.Set<String> patterns,
      AgentDefinition d, List<GrantPattern> grants, List<DefinitionProblem> out) {
    for (String pattern : patterns) {
      String key = mapKey + "." + pattern;
      Optional<GrantPattern> p = GrantPattern.parse(pattern);
      if (p.isEmpty()) {
        out.add(error(file, key, "bad pattern '" + pattern + "': " + GrantPattern.SYNTAX));
      } else if (grants.stream().noneMatch(g -> g.covers(p.get()) || p.get().covers(g))) {
        out.add(error(file, key, "'" + pattern + "' matches no granted tool (tools: " + String.join(", ", d.tools())
            + ")"));
      }
    }
  }

  private void budget(String file, AgentDefinition.Budget b, List<DefinitionProblem> out) {
    long session = b.sessionTokens() == null ? DefinitionDefaults.SESSION_TOKENS : b.sessionTokens();
    long workOrder = b.workOrderTokens() == null ? DefinitionDefaults.WORK_ORDER_TOKENS : b.workOrderTokens();
    if (workOrder > session) {
      out.add(error(file, "budget.work_order_tokens", workOrder + " exceeds budget.session_tokens " + session
          + ": a work order cannot spend more than its session"));
    }
    if (b.workOrderUsd() != null && b.sessionUsd() != null && b.workOrderUsd() > b.sessionUsd()) {
      out.add(error(file, "budget.work_order_usd", b.workOrderUsd() + " exceeds budget.session_usd " + b.sessionUsd()));
    }
  }

  private static void globs(String file, String key, List<String> globs, List<DefinitionProblem> out) {
    for (int i = 0; i < globs.size(); i++) {
      try {
        FileSystems.getDefault().getPathMatcher("glob:" + globs.get(i));
      } catch (RuntimeException e) {
        String m = String.valueOf(e.getMessage());
        out.add(error(file, key + "[" + i + "]", "invalid glob '" + globs.get(i) + "': "
            + (m.contains("\n") ? m.substring(0, m.indexOf('\n')) : m)));
      }
    }
  }

  private void outputSchema(String file, JsonNode schema, List<DefinitionProblem> out) {
    if (schema == null) {
      return;
    }
    Map<String, List<String>> byKey = new java.util.LinkedHashMap<>();
    for (SchemaValidator.Violation v : validator.schemaProblems(schema)) {
      byKey.computeIfAbsent("output_schema" + ("$".equals(v.path()) ? "" : "." + v.path()), k -> new ArrayList<>())
          .add(v.message());
    }
    byKey.forEach((key, messages) -> out.add(error(file, key, "not a valid JSON Schema: " + String.join("; ", messages))));
    if (!"object".equals(schema.path("type").asText())) {
      out.add(error(file, "output_schema.type", "must be \"object\": the reply's result is a JSON object"));
    }
  }

  private static DefinitionProblem error(String file, String key, String message) {
    return new DefinitionProblem(file, key, message, false);
  }
}
