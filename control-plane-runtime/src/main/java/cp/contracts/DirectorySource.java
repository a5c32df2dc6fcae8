package cp.contracts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** A {@link ResourceSource} over a plain directory. */
final class DirectorySource implements ResourceSource {
  private final Path root;

  DirectorySource(Path root) {
    this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
  }

  @Override
  public List<ResourceFile> list(String directory) {
    Path dir = inside(directory);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<ResourceFile> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList()) {
        out.add(new ResourceFile(relative(p), Files.readAllBytes(p)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
    }
    return List.copyOf(out);
  }

  @Override
  public Optional<ResourceFile> read(String name) {
    Path p = inside(name);
    if (!Files.isRegularFile(p)) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ResourceFile(relative(p), Files.readAllBytes(p)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + p + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String description() {
    return "directory " + root;
  }

  /** Resolves a relative name and refuses any that would leave the root ({@code ../x}, {@code /etc}). */
  private Path inside(String name) {
    Path p = root.resolve(Objects.requireNonNull(name, "name")).normalize();
    if (!p.startsWith(root)) {
      throw new IllegalArgumentException("resource name '" + name + "' leaves the directory " + root);
    }
    return p;
  }

  private String relative(Path p) {
    return root.relativize(p).toString().replace('\\', '/');
  }
}
