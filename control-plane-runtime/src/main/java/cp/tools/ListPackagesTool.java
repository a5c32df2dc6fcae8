package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.Catalog;
import cp.contracts.InstalledArtifact;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code list_packages {}}: every installed artifact of the catalog (contracts, prompt packs,
 * agent configurations, attention templates, schemas), one line each:
 * {@code <kind> <id> <version> <file> <sha256>}, sorted by kind and id.
 */
public final class ListPackagesTool implements Tool {
  public static final String ID = "list_packages";

  private static final Comparator<InstalledArtifact> ORDER =
      Comparator.comparing((InstalledArtifact a) -> a.kind().wireName()).thenComparing(InstalledArtifact::id);

  private final Catalog catalog;

  public ListPackagesTool(Catalog catalog) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    if (catalog.artifacts().isEmpty()) {
      return ToolResult.ok("no packages installed (the catalog from " + catalog.source() + " is empty)");
    }
    return ToolResult.ok(catalog.artifacts().stream().sorted(ORDER)
        .map(a -> a.kind().wireName() + " " + a.id() + " " + a.version() + " " + a.file() + " " + a.sha256())
        .collect(Collectors.joining("\n")));
  }
}
