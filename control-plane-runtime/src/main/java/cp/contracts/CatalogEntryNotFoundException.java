package cp.contracts;

import java.util.List;

/** A lookup named an id the catalog does not hold; the message lists the ids it does hold. */
public class CatalogEntryNotFoundException extends RuntimeException {
  private final String id;
  private final ArtifactKind kind;

  public CatalogEntryNotFoundException(ArtifactKind kind, String id, List<String> known) {
    super(kind.label() + " " + id + " not found in " + kind.directory() + "/ (known: "
        + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
    this.id = id;
    this.kind = kind;
  }

  /** What kind of entry was looked up (an agent class, a contract, …). */
  public ArtifactKind kind() {
    return kind;
  }

  public String id() {
    return id;
  }
}
