package cp.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The product's main Java sources, wherever the build keeps them (one module or several): every
 * {@code .java} file under a {@code src/main/java} directory below the project root, except the
 * examples (programs that use the product as any client would).
 */
final class SourceScan {
  /** One source line: its file (relative to the root), its number and its text. */
  record Line(String file, int number, String text) {
    @Override
    public String toString() {
      return file + ":" + number + ": " + text.strip();
    }
  }

  private SourceScan() {}

  static Path projectRoot() {
    Path p = Path.of("").toAbsolutePath();
    for (Path q = p; q != null; q = q.getParent()) {
      if (Files.exists(q.resolve(".git"))) {
        return q;
      }
    }
    return p;
  }

  static List<Path> mainSources() {
    Path root = projectRoot();
    try (Stream<Path> all = Files.walk(root)) {
      List<Path> files = all.filter(f -> f.toString().endsWith(".java"))
          .filter(f -> root.relativize(f).toString().replace('\\', '/').matches("(.*/)?src/main/java/.*"))
          .filter(f -> !root.relativize(f).toString().contains("/target/"))
          // The examples are clients of the published contract: they spell its codes on purpose.
          .filter(f -> !root.relativize(f).toString().replace('\\', '/').startsWith("examples/"))
          .sorted().toList();
      if (files.isEmpty()) {
        throw new IllegalStateException("no main sources under " + root);
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Line> lines(Path file) {
    try {
      List<String> text = Files.readAllLines(file, StandardCharsets.UTF_8);
      List<Line> out = new ArrayList<>();
      String name = projectRoot().relativize(file).toString().replace('\\', '/');
      for (int i = 0; i < text.size(); i++) {
        out.add(new Line(name, i + 1, text.get(i)));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
