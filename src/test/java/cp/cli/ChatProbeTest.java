package cp.cli;

import java.nio.file.*;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatProbeTest {
  @TempDir Path home;
  @Test
  void probe() throws Exception {
    var env = CliHarness.env(home);
    CliHarness.Run first = CliHarness.runWithInput(env, "hello\n", "chat");
    System.out.println("PROBE first " + first.describe());
    Path hot = home.resolve("HOT/ledger/governance.jsonl");
    Files.writeString(hot, "garbage line\n", StandardOpenOption.APPEND);
    long t0 = System.nanoTime();
    CliHarness.Run r = CliHarness.runWithInput(env, "hello\n", "chat");
    System.out.println("PROBE second after " + (System.nanoTime() - t0) / 1_000_000 + " ms " + r.describe());
  }
}
