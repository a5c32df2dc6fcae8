package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs appending to one ledger file at the same time must produce one valid chain. */
class LedgerMultiProcessTest {
  @TempDir Path dir;

  private Process start(Path file, int n, String writer) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LedgerAppender.class.getName(),
        file.toString(), String.valueOf(n), writer, "fsync")
        .redirectErrorStream(true).redirectOutput(dir.resolve(writer + ".log").toFile()).start();
  }

  @Test
  void twoProcessesAppendingAtOnce_produceOneValidChain() throws Exception {
    Path file = dir.resolve("HO1/ledger/worker.jsonl");
    int n = 300;
    List<Process> procs = new ArrayList<>();
    procs.add(start(file, n, "proc-a"));
    procs.add(start(file, n, "proc-b"));
    // This JVM writes too while the others run.
    try (Ledger l = Ledger.open(file, LedgerOptions.of(Durability.NONE))) {
      for (int i = 0; i < 100; i++) {
        l.write(LedgerEntry.builder("APPEND").metadata(cp.model.Json.object().put("session_id", "parent")).build());
      }
    }
    for (Process p : procs) {
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child did not finish");
      assertEquals(0, p.exitValue(), "child failed; see " + dir + File.separator + "*.log");
    }
    try (Ledger l = Ledger.open(file, LedgerOptions.of(Durability.NONE))) {
      VerifyResult r = l.verify();
      assertTrue(r.ok(), r.reason());
      assertEquals(2 * n + 100, l.size());
      assertEquals(n, l.bySession("proc-a").size());
      assertEquals(n, l.bySession("proc-b").size());
      assertEquals(100, l.bySession("parent").size());
    }
  }

  @Test
  void aSecondProcessRetryingTheSameIdempotentWrites_addsNothing() throws Exception {
    Path file = dir.resolve("HOT/ledger/governance.jsonl");
    Process first = start(file, 50, "writer");
    assertTrue(first.waitFor(60, TimeUnit.SECONDS));
    Process retry = start(file, 50, "writer");
    assertTrue(retry.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, retry.exitValue());
    try (Ledger l = Ledger.open(file, LedgerOptions.of(Durability.NONE))) {
      assertEquals(50, l.size());
      assertTrue(l.verify().ok());
    }
  }
}
