package cp.tools;

import cp.contracts.Catalog;
import cp.contracts.CatalogRequirements;
import cp.contracts.ResourceSource;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalog a worker loaded, or why it could not: what {@link IntegrityGates} judges, together
 * with the source the files came from (so it can re-read them and compare hashes).
 */
public record CatalogStatus(Catalog catalog, RuntimeException loadError, ResourceSource source) {
  public CatalogStatus {
    Objects.requireNonNull(source, "source");
    if ((catalog == null) == (loadError == null)) {
      throw new IllegalArgumentException("a catalog status holds either a catalog or its load error");
    }
  }

  public static CatalogStatus loaded(Catalog catalog, ResourceSource source) {
    return new CatalogStatus(Objects.requireNonNull(catalog, "catalog"), null, source);
  }

  public static CatalogStatus failed(ResourceSource source, RuntimeException loadError) {
    return new CatalogStatus(null, Objects.requireNonNull(loadError, "loadError"), source);
  }

  /** Loads the catalog of {@code source}, keeping a failure instead of throwing it. */
  public static CatalogStatus load(ResourceSource source) {
    return load(source, CatalogRequirements.NONE);
  }

  /**
   * Loads the catalog of {@code source} with the checks start-up makes ({@code requirements}: the
   * contracts the workflows plan under, the tools the workers implement), keeping a failure
   * instead of throwing it, so a gate fails on what would stop a worker.
   */
  public static CatalogStatus load(ResourceSource source, CatalogRequirements requirements) {
    try {
      return loaded(Catalog.load(source, requirements), source);
    } catch (RuntimeException e) {
      return failed(source, e);
    }
  }

  public Optional<Catalog> loadedCatalog() {
    return Optional.ofNullable(catalog);
  }
}
