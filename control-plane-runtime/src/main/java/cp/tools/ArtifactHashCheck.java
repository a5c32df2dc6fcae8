package cp.tools;

import cp.contracts.AddedAgent;
import cp.contracts.ArtifactKind;
import cp.contracts.Catalog;
import cp.contracts.InstalledArtifact;
import cp.contracts.ResourceFile;
import cp.contracts.ResourceSource;
import cp.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Re-reads every artifact of a loaded catalog and compares its SHA-256 with the one recorded at
 * load: a file edited, replaced or removed since the worker started is what the gate reports.
 * Schemas always come from the classpath (the catalog loads them from there too).
 */
final class ArtifactHashCheck {
  /** A failing gate names at most this many changed files, then counts the rest. */
  static final int MAX_NAMED_FILES = 5;
  /** Hex digits of a SHA-256 shown in messages: enough to tell two hashes apart. */
  static final int SHOWN_HASH_CHARS = 12;

  private ArtifactHashCheck() {}

  static GateResult check(String gateId, Catalog catalog, ResourceSource source, ResourceSource schemas) {
    List<String> problems = new ArrayList<>();
    int inCode = 0;
    for (InstalledArtifact a : catalog.artifacts()) {
      if (a.kind() == ArtifactKind.AGENT_DEFINITION) {
        if (a.file().startsWith(AddedAgent.IN_CODE)) {
          inCode++; // part of the program that registered it: nothing on disk to change under it
        } else {
          definitionFile(a).ifPresent(problems::add);
        }
        continue;
      }
      ResourceSource from = a.kind() == ArtifactKind.SCHEMA ? schemas : source;
      Optional<ResourceFile> now;
      try {
        now = from.read(a.file());
      } catch (RuntimeException e) {
        problems.add(a.file() + " cannot be read (" + e.getClass().getSimpleName() + ")");
        continue;
      }
      if (now.isEmpty()) {
        problems.add(a.file() + " is missing");
      } else if (!now.get().sha256().equals(a.sha256())) {
        problems.add(a.file() + " changed since load (recorded sha256 " + shortHash(a.sha256()) + "..., now "
            + shortHash(now.get().sha256()) + "...)");
      }
    }
    int total = catalog.artifacts().size();
    if (problems.isEmpty()) {
      return GateResult.pass(gateId, total + " artifacts from " + catalog.source()
          + " match the SHA-256 recorded at load" + (inCode == 0 ? "" : " (" + inCode
          + " agent definition(s) registered in code have no file to re-read)"));
    }
    List<String> named = problems.subList(0, Math.min(MAX_NAMED_FILES, problems.size()));
    String more = problems.size() > named.size() ? "; and " + (problems.size() - named.size()) + " more" : "";
    return GateResult.fail(gateId, problems.size() + " of " + total + " artifacts differ from what was loaded: "
        + String.join("; ", named) + more + "; restart the worker to load the current files, or restore them");
  }

  /** A definition file of CP_AGENTS_DIR, re-read from its path: what is wrong with it, if anything. */
  private static Optional<String> definitionFile(InstalledArtifact a) {
    Path p = Path.of(a.file());
    try {
      if (!Files.isRegularFile(p)) {
        return Optional.of(a.file() + " is missing");
      }
      String now = Json.sha256(Files.readAllBytes(p));
      return now.equals(a.sha256()) ? Optional.empty() : Optional.of(a.file() + " changed since load (recorded sha256 "
          + shortHash(a.sha256()) + "..., now " + shortHash(now) + "...)");
    } catch (IOException | RuntimeException e) {
      return Optional.of(a.file() + " cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static String shortHash(String sha256) {
    return sha256.substring(0, Math.min(SHOWN_HASH_CHARS, sha256.length()));
  }
}
