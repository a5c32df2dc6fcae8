package cp.eval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The eval worker's resources directory (issue 25 §5): the operator's own ({@code --resources} or
 * CP_RESOURCES_DIR), copied, plus the judge's contract PRC-JUDGE-001 and prompt pack PRM-JUDGE-001
 * where that directory has none of its own. The judge is a contract of the eval worker only: the
 * product's shipped catalog, and so every production worker, stays as it was. An operator who wants
 * another judge prompt puts a {@code prompts/PRM-JUDGE-001.json} (or the contract) in their directory.
 */
final class JudgeResources {
  /** The judge's files (classpath resources under {@code cp/eval/judge/}) by their place in a resources directory. */
  static final List<String> FILES = List.of("contracts/PRC-JUDGE-001.json", "prompts/PRM-JUDGE-001.json");

  private JudgeResources() {}

  /** (Re)writes {@code target}: {@code own}'s files, and the judge's where {@code own} lacks them. */
  static void prepare(Optional<Path> own, Path target) {
    try {
      if (Files.exists(target)) {
        try (Stream<Path> walk = Files.walk(target)) {
          for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
      Files.createDirectories(target);
      if (own.isPresent()) {
        try (Stream<Path> walk = Files.walk(own.get())) {
          for (Path p : walk.toList()) {
            Path to = target.resolve(own.get().relativize(p).toString());
            if (Files.isDirectory(p)) {
              Files.createDirectories(to);
            } else if (Files.isRegularFile(p)) {
              Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
            }
          }
        }
      }
      for (String f : FILES) {
        Path to = target.resolve(f);
        if (!Files.exists(to)) {
          Files.createDirectories(to.getParent());
          try (InputStream in = JudgeResources.class.getResourceAsStream("/cp/eval/judge/" + f)) {
            if (in == null) {
              throw new IllegalStateException("the product's jar lacks cp/eval/judge/" + f);
            }
            Files.copy(in, to);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the eval worker's resources in " + target + ": " + e.getMessage(),
          e);
    }
  }
}
