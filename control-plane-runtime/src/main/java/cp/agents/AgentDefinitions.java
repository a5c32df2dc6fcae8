package cp.agents;

import cp.contracts.Catalog;
import cp.contracts.SchemaValidator;
import cp.contracts.ToolNamespace;
import cp.tools.mcp.McpServerSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads and checks every agent definition of a directory ({@code CP_AGENTS_DIR}), with no worker
 * and no provider: each file alone ({@link DefinitionReader}, {@link DefinitionChecks}), then across
 * files and against the catalog: a class defined twice or clashing with a built-in, an MCP server
 * name two files define differently. Every problem of every file is collected.
 */
public final class AgentDefinitions {
  /** The variable naming the directory of agent definitions. */
  public static final String VARIABLE = "CP_AGENTS_DIR";

  private AgentDefinitions() {}

  /**
   * What a directory's definitions came to.
   *
   * @param definitions the definitions without errors, in file order
   * @param problems every error and warning, in file order
   * @param read every definition that could be read, errors or not, by file (without the keys the
   *     schema refused): checks made apart from these ({@link DefinitionPrices}) see every file
   */
  public record Result(List<CheckedDefinition> definitions, List<DefinitionProblem> problems,
      Map<String, AgentDefinition> read) {
    public Result {
      definitions = List.copyOf(definitions);
      problems = List.copyOf(problems);
      read = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(read));
    }

    /** A result whose readable definitions are its valid ones. */
    public Result(List<CheckedDefinition> definitions, List<DefinitionProblem> problems) {
      this(definitions, problems, byFile(definitions));
    }

    private static Map<String, AgentDefinition> byFile(List<CheckedDefinition> definitions) {
      Map<String, AgentDefinition> out = new LinkedHashMap<>();
      definitions.forEach(d -> out.put(d.file(), d.definition()));
      return out;
    }

    public List<DefinitionProblem> errors() {
      return problems.stream().filter(p -> !p.warning()).toList();
    }

    public List<DefinitionProblem> warnings() {
      return problems.stream().filter(DefinitionProblem::warning).toList();
    }

    public boolean ok() {
      return errors().isEmpty();
    }

    /** Every MCP server of the definitions, once per name. */
    public List<McpServerSpec> servers() {
      Map<String, McpServerSpec> byName = new LinkedHashMap<>();
      definitions.forEach(d -> d.servers().forEach(s -> byName.putIfAbsent(s.name(), s)));
      return List.copyOf(byName.values());
    }
  }

  /**
   * Checks the definitions in {@code dir}.
   *
   * @param catalog the built-in (and CP_RESOURCES_DIR) agents a definition may not redefine
   * @param tools the built-in and Java tools a grant may name
   * @param env the environment of {@code ${NAME}}, {@code api_key_env} and PATH
   */
  public static Result check(Path dir, Catalog catalog, ToolNamespace tools, Map<String, String> env) {
    List<DefinitionProblem> problems = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      problems.add(new DefinitionProblem(dir.toString(), "", "is not a directory (" + VARIABLE + " names a directory"
          + " of *.yaml, *.yml or *.json agent definitions)", false));
      return new Result(List.of(), problems);
    }
    List<DefinitionSource> sources = new ArrayList<>();
    for (Path file : files(dir, problems)) {
      try {
        sources.add(DefinitionSource.of(file));
      } catch (java.io.UncheckedIOException e) {
        problems.add(new DefinitionProblem(file.getFileName().toString(), "", "cannot be read: "
            + e.getCause().getMessage(), false));
      }
    }
    Result r = check(sources, catalog, tools, env);
    problems.addAll(r.problems());
    return new Result(r.definitions(), problems, r.read());
  }

  /**
   * Checks {@code sources} (a directory's files, definitions registered in code, or both) as one
   * set: a class defined twice among them is an error naming both.
   */
  public static Result check(List<DefinitionSource> sources, Catalog catalog, ToolNamespace tools,
      Map<String, String> env) {
    List<DefinitionProblem> problems = new ArrayList<>();
    List<CheckedDefinition> ok = new ArrayList<>();
    Map<String, AgentDefinition> readable = new LinkedHashMap<>();
    SchemaValidator validator = catalog.schemaValidator();
    DefinitionReader reader = new DefinitionReader(validator);
    DefinitionChecks checks = new DefinitionChecks(validator, env, tools);
    Map<String, String> fileOfClass = new LinkedHashMap<>();
    Map<String, Map.Entry<String, McpServerSpec>> servers = new LinkedHashMap<>();
    for (DefinitionSource source : sources) {
      String name = source.name();
      Optional<DefinitionReader.Read> read = reader.read(name, source.bytes(), problems);
      if (read.isEmpty()) {
        continue;
      }
      AgentDefinition def = read.get().definition();
      readable.put(name, def);
      String agentClass = def.agentClass(); // null when missing or refused by the schema
      Optional<String> builtin = agentClass == null ? Optional.empty() : catalog.agentFile(agentClass);
      String other = agentClass == null ? null : fileOfClass.putIfAbsent(agentClass, name);
      if (builtin.isPresent()) {
        problems.add(new DefinitionProblem(name, "agent_class", agentClass + " is already defined in " + builtin.get()
            + " (built in); choose another class name", false));
      } else if (other != null) {
        problems.add(new DefinitionProblem(name, "agent_class", agentClass + " is also defined in " + other
            + "; an agent class is defined once", false));
      }
      List<DefinitionProblem> beyond = new ArrayList<>();
      Optional<CheckedDefinition> checked = checks.check(name, source.baseDir(), def, beyond)
          .map(c -> c.from(source));
      // What follows from a key the schema refused is not news: the schema's line says it.
      beyond.stream().filter(p -> !read.get().hides(p.key())).forEach(problems::add);
      if (checked.isEmpty() || !read.get().schemaValid() || builtin.isPresent() || other != null) {
        continue;
      }
      if (sameServersAgree(name, checked.get(), servers, problems)) {
        ok.add(checked.get());
      }
    }
    return new Result(ok, problems, readable);
  }

  /** One server name means one server: two files may share it only with the same command or URL. */
  private static boolean sameServersAgree(String file, CheckedDefinition d,
      Map<String, Map.Entry<String, McpServerSpec>> servers, List<DefinitionProblem> problems) {
    boolean agree = true;
    for (McpServerSpec s : d.servers()) {
      Map.Entry<String, McpServerSpec> earlier = servers.putIfAbsent(s.name(), Map.entry(file, s));
      if (earlier != null && !earlier.getValue().equals(s)) {
        problems.add(new DefinitionProblem(file, "mcp_servers." + s.name(), "server " + s.name() + " is also defined"
            + " in " + earlier.getKey() + " differently; a server name means one server for the whole worker", false));
        agree = false;
      }
    }
    return agree;
  }

  /**
   * The directory's definition files, sorted; a definition's name that is a symbolic link to
   * nothing is a problem (before, it was skipped silently: an agent gone without a word).
   */
  private static List<Path> files(Path dir, List<DefinitionProblem> problems) {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> named = s.filter(p -> DefinitionReader.isDefinition(p.getFileName().toString())).sorted().toList();
      for (Path p : named) {
        if (Files.isSymbolicLink(p) && !Files.exists(p)) {
          problems.add(new DefinitionProblem(p.getFileName().toString(), "", "is a symbolic link to "
              + linkTarget(p) + ", which does not exist: restore it or remove the link", false));
        }
      }
      return named.stream().filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      problems.add(new DefinitionProblem(dir.toString(), "", "cannot be listed: " + e.getMessage(), false));
      return List.of();
    }
  }

  private static String linkTarget(Path link) {
    try {
      Path target = Files.readSymbolicLink(link);
      return target.isAbsolute() ? target.toString() : link.resolveSibling(target).normalize().toString();
    } catch (IOException e) {
      return "a path that cannot be read (" + e.getMessage() + ")";
    }
  }
}
