package cp.eval;

import cp.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What an eval run must leave alone: every file of a production plane root outside {@code evals/}, by content hash. */
public final class ProductionFiles {
  private ProductionFiles() {}

  public static Map<String, String> of(Path home) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(home)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        Path rel = home.relativize(f);
        if (!rel.startsWith(EvalScope.DIR)) {
          files.put(rel.toString(), Json.sha256(Files.readAllBytes(f)));
        }
      }
    }
    return files;
  }
}
