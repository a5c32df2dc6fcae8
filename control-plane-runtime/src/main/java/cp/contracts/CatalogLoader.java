package cp.contracts;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import cp.model.Json;
import cp.model.RootCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads, validates and cross-checks every catalog file of a source, collecting all problems
 * before it gives up; {@link Catalog#load} is its only caller.
 */
final class CatalogLoader {
  /** Strict reading: a key written twice is almost always a typo that would silently win. */
  private static final ObjectReader READER = Json.MAPPER.reader()
      .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final String JSON_SUFFIX = ".json";

  private final ResourceSource source;
  private final SchemaValidator validator = new SchemaValidator();
  private final Problems problems = new Problems();
  private final CatalogChecks checks;
  private final CatalogRequirements requirements;
  /** Ids seen in parseable files, valid or not: a reference to a broken file is not reported twice. */
  private final Map<ArtifactKind, Set<String>> seenIds = new EnumMap<>(ArtifactKind.class);

  CatalogLoader(ResourceSource source, CatalogRequirements requirements) {
    this.source = source;
    this.checks = new CatalogChecks(validator, problems, requirements);
    this.requirements = requirements;
  }

  Catalog load() {
    BuiltinSchemas schemas = BuiltinSchemas.load(validator);
    Map<String, Loaded<PromptContract>> contracts;
    Map<String, Loaded<PromptPack>> packs;
    Map<String, Loaded<AgentConfig>> agents;
    Map<String, Loaded<AttentionTemplate>> templates;
    try {
      contracts = loadAll(ArtifactKind.CONTRACT, schemas, PromptContract.class, PromptContract::contractId,
          PromptContract::version, checks::contract);
      packs = loadAll(ArtifactKind.PROMPT_PACK, schemas, PromptPack.class, PromptPack::promptPackId,
          PromptPack::version, checks::promptPack);
      agents = loadAll(ArtifactKind.AGENT, schemas, AgentConfig.class, AgentConfig::agentClass,
          AgentConfig::version, checks::agent);
      templates = loadAll(ArtifactKind.ATTENTION_TEMPLATE, schemas, AttentionTemplate.class,
          AttentionTemplate::templateId, AttentionTemplate::version, checks::attentionTemplate);
    } catch (UncheckedIOException e) {
      throw new CatalogException(source.description(), List.of(e.getMessage()));
    }
    uniqueAgentIds(agents);
    crossCheck(contracts, packs, agents, templates);
    checks.requiredContracts(contracts.keySet(), seenIds.get(ArtifactKind.CONTRACT));
    if (!problems.isEmpty()) {
      throw new CatalogException(source.description(), problems.lines());
    }
    return new Catalog(source.description(), validator, contracts, packs, agents, templates, schemas.files(),
        requirements);
  }

  private <T> Map<String, Loaded<T>> loadAll(ArtifactKind kind, BuiltinSchemas schemas, Class<T> type,
      Function<T, String> id, Function<T, String> version, Consumer<Loaded<T>> check) {
    Set<String> seen = seenIds.computeIfAbsent(kind, k -> new HashSet<>());
    Map<String, String> fileOfId = new LinkedHashMap<>();
    Map<String, Loaded<T>> out = new LinkedHashMap<>();
    List<ResourceFile> files = source.list(kind.directory()).stream()
        .filter(f -> f.name().endsWith(JSON_SUFFIX)).toList();
    if (files.isEmpty()) {
      problems.add(kind.directory() + "/", null, "no " + kind.label() + " files (*.json) found");
    }
    for (ResourceFile file : files) {
      JsonNode tree = parse(file);
      if (tree == null) {
        continue;
      }
      JsonNode rawId = tree.get(kind.idField());
      if (rawId != null && rawId.isTextual()) {
        String idText = rawId.asText();
        seen.add(idText);
        String other = fileOfId.putIfAbsent(idText, file.name());
        if (other != null) {
          problems.add(file.name(), kind.idField(), "duplicate " + kind.label() + " id " + idText
              + ": also defined in " + other + " (ids must be unique across files)");
          continue;
        }
      }
      List<SchemaValidator.Violation> violations = validator.violations(schemas.schema(kind), tree);
      if (!violations.isEmpty()) {
        problems.addAll(file.name(), "", violations);
        continue;
      }
      T value;
      try {
        value = READER.treeToValue(tree, type);
      } catch (IOException | RuntimeException e) {
        problems.add(file.name(), null, "cannot be read as a " + kind.label() + ": " + RootCause.innermostMessage(e));
        continue;
      }
      Loaded<T> loaded = new Loaded<>(value, file, version.apply(value));
      check.accept(loaded);
      out.put(id.apply(value), loaded);
    }
    return out;
  }

  private JsonNode parse(ResourceFile file) {
    try {
      JsonNode tree = READER.readTree(file.bytes());
      if (tree == null || tree.isMissingNode()) {
        problems.add(file.name(), null, "is empty: expected a JSON object");
        return null;
      }
      return tree;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
      problems.add(file.name(), null, "not valid JSON: " + e.getOriginalMessage() + where);
      return null;
    } catch (IOException e) {
      problems.add(file.name(), null, "cannot be read: " + e.getMessage());
      return null;
    }
  }

  private void uniqueAgentIds(Map<String, Loaded<AgentConfig>> agents) {
    Map<String, String> fileOfAgentId = new LinkedHashMap<>();
    for (Loaded<AgentConfig> a : agents.values()) {
      String other = fileOfAgentId.putIfAbsent(a.value().agentId(), a.file().name());
      if (other != null) {
        problems.add(a.file().name(), "agent_id", "duplicate agent id " + a.value().agentId() + ": also defined in " + other);
      }
    }
  }

  private void crossCheck(Map<String, Loaded<PromptContract>> contracts, Map<String, Loaded<PromptPack>> packs,
      Map<String, Loaded<AgentConfig>> agents, Map<String, Loaded<AttentionTemplate>> templates) {
    for (Loaded<PromptContract> c : contracts.values()) {
      String packId = c.value().promptPackId();
      Loaded<PromptPack> pack = packs.get(packId);
      if (pack != null) {
        checks.contractUsesPack(c.value(), pack);
      } else if (!seenIds.get(ArtifactKind.PROMPT_PACK).contains(packId)) {
        problems.add(c.file().name(), "prompt_pack_id", notFound(ArtifactKind.PROMPT_PACK, packId, packs.keySet()));
      }
    }
    for (Loaded<AgentConfig> a : agents.values()) {
      String templateId = a.value().attentionTemplateId();
      Loaded<AttentionTemplate> template = templates.get(templateId);
      if (template == null) {
        if (!seenIds.get(ArtifactKind.ATTENTION_TEMPLATE).contains(templateId)) {
          problems.add(a.file().name(), "attention.template_id",
              notFound(ArtifactKind.ATTENTION_TEMPLATE, templateId, templates.keySet()));
        }
      } else if (!template.value().appliesTo().appliesTo(a.value().agentClass())) {
        problems.add(a.file().name(), "attention.template_id", templateId + " applies to agent classes "
            + template.value().appliesTo().agentClass() + ", not " + a.value().agentClass()
            + " (see " + template.file().name() + " applies_to)");
      }
    }
  }

  private static String notFound(ArtifactKind kind, String id, Set<String> known) {
    return new CatalogEntryNotFoundException(kind, id, new ArrayList<>(new TreeSet<>(known))).getMessage();
  }
}
