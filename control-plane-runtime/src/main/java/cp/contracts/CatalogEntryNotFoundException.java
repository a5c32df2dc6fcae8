package cp.contracts;

import java.util.List;

/** A lookup named an id the catalog does not hold; the message lists the ids it does hold. */
public class CatalogEntryNotFoundException extends RuntimeException {
  private final String id;

  public CatalogEntryNotFoundException(ArtifactKind kind, String id, List<String> known) {
    super(kind.label() + " " + id + " not found in " + kind.directory() + "/ (known: "
        + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
    this.id = id;
  }

  public String id() {
    return id;
  }
}
