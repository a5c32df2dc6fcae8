package cp.contracts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every contract, prompt pack, agent configuration and attention template of the plane, validated.
 *
 * <p>Loaded once at worker start-up: each file is checked against its schema, embedded schemas
 * are checked against the JSON Schema meta-schema, and references between files (contract to
 * prompt pack, agent to attention template) are resolved. A bad file stops the load with a
 * {@link CatalogException} that names every bad file and field. After that the catalog is
 * immutable and safe to share between threads.
 */
public final class Catalog {
  private final String source;
  private final SchemaValidator validator;
  private final Map<String, Loaded<PromptContract>> contracts;
  private final Map<String, Loaded<PromptPack>> packs;
  private final Map<String, Loaded<AgentConfig>> agents;
  private final Map<String, Loaded<AttentionTemplate>> templates;
  private final List<InstalledArtifact> artifacts;
  private final CatalogRequirements requirements;
  /** The added agents' own models and output schemas, by class (the files' agents have none). */
  private final Map<String, AgentModel> models;

  Catalog(String source, SchemaValidator validator, Map<String, Loaded<PromptContract>> contracts,
      Map<String, Loaded<PromptPack>> packs, Map<String, Loaded<AgentConfig>> agents,
      Map<String, Loaded<AttentionTemplate>> templates, List<Loaded<String>> schemaFiles,
      CatalogRequirements requirements) {
    this.source = source;
    this.validator = validator;
    this.requirements = requirements;
    this.contracts = sorted(contracts);
    this.packs = sorted(packs);
    this.agents = sorted(agents);
    this.templates = sorted(templates);
    List<InstalledArtifact> all = new ArrayList<>();
    this.contracts.forEach((id, l) -> all.add(artifact(ArtifactKind.CONTRACT, id, l)));
    this.packs.forEach((id, l) -> all.add(artifact(ArtifactKind.PROMPT_PACK, id, l)));
    this.agents.forEach((id, l) -> all.add(artifact(ArtifactKind.AGENT, id, l)));
    this.templates.forEach((id, l) -> all.add(artifact(ArtifactKind.ATTENTION_TEMPLATE, id, l)));
    schemaFiles.stream().sorted(Comparator.comparing(Loaded::value))
        .forEach(l -> all.add(artifact(ArtifactKind.SCHEMA, l.value(), l)));
    this.artifacts = List.copyOf(all);
    this.models = Map.of();
  }

  /** A catalog checked against no requirements (test fixtures that assemble one by hand). */
  Catalog(String source, SchemaValidator validator, Map<String, Loaded<PromptContract>> contracts,
      Map<String, Loaded<PromptPack>> packs, Map<String, Loaded<AgentConfig>> agents,
      Map<String, Loaded<AttentionTemplate>> templates, List<Loaded<String>> schemaFiles) {
    this(source, validator, contracts, packs, agents, templates, schemaFiles, CatalogRequirements.NONE);
  }

  /**
   * The same files with more agents: {@link #withAgents}; the artifacts are those of the files and
   * the added agents' definitions.
   */
  private Catalog(Catalog base, Map<String, Loaded<AgentConfig>> agents, Map<String, Loaded<AttentionTemplate>> templates,
      List<AddedAgent> added) {
    this.source = base.source;
    this.validator = base.validator;
    this.requirements = base.requirements;
    this.contracts = base.contracts;
    this.packs = base.packs;
    this.agents = sorted(agents);
    this.templates = sorted(templates);
    List<InstalledArtifact> all = new ArrayList<>(base.artifacts);
    added.forEach(a -> all.add(a.artifact()));
    this.artifacts = List.copyOf(all);
    Map<String, AgentModel> byClass = new java.util.HashMap<>(base.models);
    added.forEach(a -> byClass.put(a.config().agentClass(), a.model()));
    this.models = Map.copyOf(byClass);
  }

  /**
   * This catalog with agent classes defined elsewhere ({@code CP_AGENTS_DIR}), each checked as an
   * agent file is: its class must be new (a clash names both files), its attention template must
   * exist here or come with it and apply to it, its tools must be known to the
   * {@link #requirements()}, its globs and approval limits must hold.
   *
   * @throws CatalogException listing every problem, one per line, naming the added files
   */
  public Catalog withAgents(List<AddedAgent> added) {
    return withAgents(added, requirements.tools());
  }

  /**
   * Like {@link #withAgents(List)}, checking the added agents' tools against {@code tools} (the
   * worker's whole registry, MCP tools included, where the files were checked before MCP servers
   * were listed).
   */
  public Catalog withAgents(List<AddedAgent> added, ToolNamespace tools) {
    Map<String, Loaded<AgentConfig>> allAgents = new java.util.LinkedHashMap<>(agents);
    Map<String, Loaded<AttentionTemplate>> allTemplates = new java.util.LinkedHashMap<>(templates);
    List<String> problems = new AgentAdditions(validator, requirements.withTools(tools))
        .add(added, allAgents, allTemplates);
    if (!problems.isEmpty()) {
      throw new CatalogException(source, problems);
    }
    return new Catalog(this, allAgents, allTemplates, added);
  }

  /**
   * An agent class's own model, output bound and output schema (a defined agent's {@code model},
   * {@code max_tokens} and {@code output_schema}); {@link AgentModel#WORKER_DEFAULT} for the
   * agents of the catalog's files and for an unknown class.
   */
  public AgentModel model(String agentClass) {
    return agentClass == null ? AgentModel.WORKER_DEFAULT
        : models.getOrDefault(agentClass.toUpperCase(Locale.ROOT), AgentModel.WORKER_DEFAULT);
  }

  /** What the catalog was checked against when it loaded (contracts, known tools). */
  public CatalogRequirements requirements() {
    return requirements;
  }

  /** The file an agent class came from ({@code agents/admin.json}, or an added definition's file). */
  public Optional<String> agentFile(String agentClass) {
    return Optional.ofNullable(agents.get(agentClass)).map(l -> l.file().name());
  }

  /**
   * Loads and validates everything {@code source} holds; the schemas come from the classpath.
   *
   * @throws CatalogException listing every problem of every file, one per line
   */
  public static Catalog load(ResourceSource source) {
    return load(source, CatalogRequirements.NONE);
  }

  /**
   * Like {@link #load(ResourceSource)}, and also refuses a catalog that lacks what the running
   * code needs: a contract its workflows plan under, or a tool its workers implement.
   *
   * @throws CatalogException listing every problem of every file, one per line
   */
  public static Catalog load(ResourceSource source, CatalogRequirements requirements) {
    return new CatalogLoader(source, requirements).load();
  }

  /**
   * The catalog of the product's own classpath resources, loaded on first use and then shared
   * (the classpath cannot change while the JVM runs). It is checked like a worker's: every
   * contract the workflows plan under and only built-in tools ({@link CatalogRequirements#SHIPPED}).
   */
  public static Catalog loadDefault() {
    return Shipped.CATALOG;
  }

  /** The shipped catalog, loaded once when first asked for (holder idiom; immutable). */
  private static final class Shipped {
    static final Catalog CATALOG = load(ResourceSource.classpath(), CatalogRequirements.SHIPPED);
  }

  /**
   * The contract with this id.
   *
   * @throws ContractNotFoundException listing the known contract ids
   */
  public PromptContract contract(String contractId) {
    Loaded<PromptContract> c = contracts.get(contractId);
    if (c == null) {
      throw new ContractNotFoundException(contractId, List.copyOf(contracts.keySet()));
    }
    return c.value();
  }

  public Optional<PromptContract> findContract(String contractId) {
    return Optional.ofNullable(contracts.get(contractId)).map(Loaded::value);
  }

  /** All contracts, sorted by id. */
  public List<PromptContract> contracts() {
    return values(contracts);
  }

  /** @throws CatalogEntryNotFoundException listing the known prompt pack ids */
  public PromptPack promptPack(String promptPackId) {
    return get(packs, ArtifactKind.PROMPT_PACK, promptPackId);
  }

  public List<PromptPack> promptPacks() {
    return values(packs);
  }

  /**
   * The agent configuration of a class; the lookup ignores case ({@code admin} finds ADMIN).
   *
   * @throws CatalogEntryNotFoundException listing the known agent classes
   */
  public AgentConfig agent(String agentClass) {
    return get(agents, ArtifactKind.AGENT, agentClass == null ? null : agentClass.toUpperCase(Locale.ROOT));
  }

  /** All agent configurations, sorted by class. */
  public List<AgentConfig> agents() {
    return values(agents);
  }

  public List<String> agentClasses() {
    return List.copyOf(agents.keySet());
  }

  /** @throws CatalogEntryNotFoundException listing the known template ids */
  public AttentionTemplate attentionTemplate(String templateId) {
    return get(templates, ArtifactKind.ATTENTION_TEMPLATE, templateId);
  }

  public List<AttentionTemplate> attentionTemplates() {
    return values(templates);
  }

  /** Every installed file (schemas included) with kind, id, version, file name and SHA-256. */
  public List<InstalledArtifact> artifacts() {
    return artifacts;
  }

  /** The validator the catalog compiled its schemas with; reuse it to share compiled schemas. */
  public SchemaValidator schemaValidator() {
    return validator;
  }

  /** Where the files came from: {@code classpath} or {@code directory /x/y}. */
  public String source() {
    return source;
  }

  private static <T> T get(Map<String, Loaded<T>> map, ArtifactKind kind, String id) {
    Loaded<T> l = id == null ? null : map.get(id);
    if (l == null) {
      throw new CatalogEntryNotFoundException(kind, id, List.copyOf(map.keySet()));
    }
    return l.value();
  }

  private static <T> List<T> values(Map<String, Loaded<T>> map) {
    return map.values().stream().map(Loaded::value).toList();
  }

  private static <T> Map<String, Loaded<T>> sorted(Map<String, Loaded<T>> map) {
    return Collections.unmodifiableMap(new TreeMap<>(map));
  }

  private static InstalledArtifact artifact(ArtifactKind kind, String id, Loaded<?> l) {
    return new InstalledArtifact(kind, id, l.version(), l.file().name(), l.file().sha256());
  }
}
