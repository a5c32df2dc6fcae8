package cp.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * A run's files under {@code CP_HOME/evals/<run>/} (issue 25 §2, §4): each finished case's
 * {@link CaseRun} ({@code cases/<key>.json}, written once the case is done, so a run started again
 * does not run it twice), each case's attempt number ({@code cases/<key>.attempt}, written before
 * its session starts), and the run's results ({@code results.json}, what {@code --baseline RUN}
 * reads). Every file is written to a temporary file and moved over the target, so a killed process
 * leaves the old file or the new one. Safe for the cases of one run running at once (each case
 * has its own files).
 */
public final class EvalRunStore {
  private static final ObjectMapper MAPPER = Json.newMapper();
  private final Path root;

  /** What a run's {@code results.json} holds. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Results(String runId, String suite, String ranWith, String finishedAt, List<CaseRun> cases) {
    public Results {
      cases = cases == null ? List.of() : List.copyOf(cases);
    }

    /** The run of case {@code caseId}, if this run had it. */
    public Optional<CaseRun> run(String caseId) {
      return cases.stream().filter(c -> c.caseId().equals(caseId)).findFirst();
    }
  }

  public EvalRunStore(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  /** The finished run of case {@code caseId}, if it has one. */
  public Optional<CaseRun> finished(String caseId) {
    return read(file(caseId, ".json")).map(t -> MAPPER.convertValue(t, CaseRun.class));
  }

  /** Records that case {@code run.caseId()} is done. */
  public void finish(CaseRun run) {
    write(file(run.caseId(), ".json"), Json.pretty(run));
  }

  /** How many attempts of case {@code caseId} were started (0: none). */
  public int attempts(String caseId) {
    Path f = file(caseId, ".attempt");
    try {
      return Integer.parseInt(Files.readString(f, StandardCharsets.UTF_8).strip());
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException("cannot read " + f + ": " + e.getMessage()
          + " (delete it to start the case over)", e);
    }
  }

  /** Records that attempt {@code attempts - 1} of case {@code caseId} is starting. */
  public void started(String caseId, int attempts) {
    write(file(caseId, ".attempt"), Integer.toString(attempts));
  }

  public void results(Results results) {
    write(root.resolve("results.json"), Json.pretty(results));
  }

  /**
   * The results of run {@code runId} under {@code evalsDir} ({@code CP_HOME/evals}).
   *
   * @throws IllegalArgumentException naming the run when it has no results
   */
  public static Results results(Path evalsDir, String runId) {
    Path f = evalsDir.resolve(runId).resolve("results.json");
    if (!runId.matches("EVR-[0-9a-f]{12}")) {
      throw new IllegalArgumentException("--baseline " + runId + " is not a run id (EVR- and 12 hex, as"
          + " 'cpctl eval run' prints)");
    }
    return read(f).map(t -> MAPPER.convertValue(t, Results.class)).orElseThrow(() -> new IllegalArgumentException(
        "--baseline " + runId + ": no results at " + f + " (a run that finished writes them)"));
  }

  private Path file(String caseId, String suffix) {
    return root.resolve("cases").resolve(Json.sha256(caseId).substring(0, 16) + suffix);
  }

  private static Optional<com.fasterxml.jackson.databind.JsonNode> read(Path f) {
    try {
      return Optional.of(MAPPER.readTree(Files.readString(f, StandardCharsets.UTF_8)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
    }
  }

  private static void write(Path target, String text) {
    try {
      Files.createDirectories(target.getParent());
      Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
    }
  }
}
