package cp.contracts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link ResourceSource} that adds an overlay's files to a base's: a file of the overlay
 * replaces the base's file of the same name, every other file of either is kept.
 *
 * <p>This is how {@code CP_RESOURCES_DIR} works: an operator's directory adds a contract or an
 * attention template, or replaces one shipped file (ADMIN's limits in {@code agents/admin.json}),
 * without copying all the others.
 */
final class LayeredSource implements ResourceSource {
  private final ResourceSource base;
  private final ResourceSource overlay;

  LayeredSource(ResourceSource base, ResourceSource overlay) {
    this.base = Objects.requireNonNull(base, "base");
    this.overlay = Objects.requireNonNull(overlay, "overlay");
  }

  @Override
  public List<ResourceFile> list(String directory) {
    Map<String, ResourceFile> byName = new TreeMap<>();
    for (ResourceFile f : base.list(directory)) {
      byName.put(f.name(), f);
    }
    for (ResourceFile f : overlay.list(directory)) {
      byName.put(f.name(), f);
    }
    return List.copyOf(new ArrayList<>(byName.values()));
  }

  @Override
  public Optional<ResourceFile> read(String name) {
    Optional<ResourceFile> over = overlay.read(name);
    return over.isPresent() ? over : base.read(name);
  }

  @Override
  public String description() {
    return base.description() + " + " + overlay.description();
  }
}
