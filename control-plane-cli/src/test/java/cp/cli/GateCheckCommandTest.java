package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.CatalogFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl gate-check}: one PASS/FAIL line per gate, exit 1 on any FAIL. */
class GateCheckCommandTest {
  @TempDir Path home;

  @Test
  void cleanPlaneAfterAChat_passesEveryGate() {
    Map<String, String> env = CliHarness.env(home);
    CliHarness.chat(env);
    CliHarness.Run r = CliHarness.run(env, "gate-check");
    assertEquals(0, r.code(), r.describe());
    for (String gate : List.of("G-PLANE-ROOT", "G-CATALOG", "G-ARTIFACTS", "G-LEDGER-HOT", "G-LEDGER-HO2-ADMIN",
        "G-LEDGER-HO1")) {
      assertTrue(r.out().contains("PASS " + gate), gate + "\n" + r.describe());
    }
    assertTrue(r.out().contains("gates pass"), r.describe());
  }

  @Test
  void tamperedLedger_failsItsGateNamingTheLine_andExits1() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    CliHarness.chat(env);
    Path ho1 = home.resolve("HO1/ledger/worker.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(ho1, StandardCharsets.UTF_8));
    lines.set(2, lines.get(2).replace("\"tier\":\"ho1\"", "\"tier\":\"hot\""));
    Files.writeString(ho1, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    CliHarness.Run r = CliHarness.run(env, "gate-check");
    assertEquals(1, r.code(), r.describe());
    assertTrue(r.out().contains("FAIL G-LEDGER-HO1"), r.describe());
    assertTrue(r.out().contains("line 3"), r.describe());
    assertTrue(r.out().contains("PASS G-LEDGER-HOT"), "other ledgers still pass\n" + r.describe());
  }

  @Test
  void aTornTail_failsItsGateAsLedgerVerifyDoes_andGateCheckChangesNothing() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    CliHarness.chat(env);
    Path hot = home.resolve("HOT/ledger/governance.jsonl");
    Files.writeString(hot, "{\"entry_id\":\"LED-1234567890abcdef\",\"event_type\":\"EXCHANGE\",\"metadata\":{",
        java.nio.file.StandardOpenOption.APPEND);
    byte[] before = Files.readAllBytes(hot);
    CliHarness.Run r = CliHarness.run(env, "gate-check");
    assertEquals(1, r.code(), r.describe());
    assertTrue(r.out().contains("FAIL G-LEDGER-HOT") && r.out().contains("incomplete final line"), r.describe());
    assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(hot)), "the torn tail is where it was");
    try (var files = Files.list(hot.getParent())) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".torn-")), "nothing moved aside");
    }
  }

  // Issue 11 item 8: a resources directory the worker refuses at start-up (no PRC-SYNTHESIZE-001) must not
  // pass G-CATALOG either: the gate checks what start-up checks.
  @Test
  void catalogGapTheWorkerRefuses_failsGCatalog_namingTheMissingContract(@TempDir Path resources) throws Exception {
    CatalogFixture.copyOfShipped(resources).edit("contracts/PRC-SYNTHESIZE-001.json",
        c -> c.put("contract_id", "PRC-SYNTHESIZE-002"));
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_RESOURCES_DIR", resources.toString());
    CliHarness.Run r = CliHarness.run(env, "gate-check", "--gate", "G-CATALOG");
    assertEquals(1, r.code(), r.describe());
    assertTrue(r.out().contains("FAIL G-CATALOG"), r.describe());
    assertTrue(r.out().contains("PRC-SYNTHESIZE-001"), r.describe());
  }

  @Test
  void singleGate_runsOnlyThatGate() {
    CliHarness.Run r = CliHarness.run(CliHarness.env(home), "gate-check", "--gate", "G-CATALOG");
    assertEquals(0, r.code(), r.describe());
    assertEquals(2, r.out().lines().count(), "one gate line and the summary\n" + r.describe());
  }

  @Test
  void unknownGate_isBadInputNamingTheKnownGates() {
    CliHarness.Run r = CliHarness.run(CliHarness.env(home), "gate-check", "--gate", "G-NOPE");
    CliHarness.assertOneLineError(r, 2);
    assertTrue(r.err().contains("G-CATALOG"), r.describe());
  }
}
