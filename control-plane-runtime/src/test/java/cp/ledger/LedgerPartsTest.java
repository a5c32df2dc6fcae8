package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSONL ledger is split into parts with one job each (issue 13), and each part's class comment
 * states its thread-safety contract, so whoever changes one knows which lock it relies on.
 */
class LedgerPartsTest {
  private static final List<String> PARTS = List.of("Ledger", "LedgerFile", "LedgerLoader", "HeadSidecar",
      "GroupCommit", "LedgerRepair", "AppendProblems", "OpenLedgers");
  /** The coordinator stays small: the jobs it had (I/O, loading, durability, repair, registry) live in the parts. */
  private static final int COORDINATOR_MAX_LINES = 550;

  private static Path source(String cls) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path f = p.resolve("src/main/java/cp/ledger/" + cls + ".java");
      if (Files.exists(f)) {
        return f;
      }
      Path m = p.resolve("control-plane-runtime/src/main/java/cp/ledger/" + cls + ".java");
      if (Files.exists(m)) {
        return m;
      }
    }
    throw new AssertionError("no source for cp.ledger." + cls);
  }

  @Test
  void everyPart_statesItsThreadSafetyContract_inItsClassComment() throws IOException {
    for (String cls : PARTS) {
      String text = Files.readString(source(cls));
      int decl = text.indexOf("final class " + cls);
      assertTrue(decl > 0, cls + " declares its class");
      int doc = text.lastIndexOf("/**", decl);
      assertTrue(doc >= 0, cls + " has a class comment");
      assertTrue(text.substring(doc, decl).contains("Thread-safety:"),
          cls + "'s class comment states its thread-safety contract (\"Thread-safety: ...\")");
    }
  }

  @Test
  void theCoordinator_keepsNoFileIoOrRegistryOfItsOwn() throws IOException {
    String ledger = Files.readString(source("Ledger"));
    long lines = ledger.lines().count();
    assertTrue(lines <= COORDINATOR_MAX_LINES, "Ledger.java has " + lines + " lines");
    for (String gone : List.of("FileChannel channel", "static final Map<Path, Ledger>", "ScheduledExecutorService",
        "scanLines(", "offsetOfLine(")) {
      assertTrue(!ledger.contains(gone), "Ledger.java no longer holds " + gone);
    }
  }
}
