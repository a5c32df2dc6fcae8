package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.contracts.ResourceFile;
import cp.contracts.ResourceSource;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The integrity gates pass on a clean plane and name what is wrong when something is. */
class IntegrityGatesTest {
  private static final List<String> CATALOG_DIRECTORIES = List.of("contracts", "prompts", "agents", "attention");

  @TempDir Path tmp;
  private TestPlane plane;

  @BeforeEach
  void setUp() {
    plane = TestPlane.at(tmp.resolve("plane"));
    for (int i = 0; i < 3; i++) {
      plane.ledgers.hot().write(LedgerEntry.builder("EXCHANGE").decision("SUCCESS").reason("exchange " + i)
          .metadata(Json.object().put("session_id", "SES-1")).build());
    }
    plane.ledgers.ho2("ADMIN").write(LedgerEntry.builder("WO_PLANNED").build());
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  private ToolResult gateCheck(String json) {
    return plane.dispatcher().execute("ADMIN", TestPlane.SESSION, "gate_check", args(json), TestPlane.ALL_ADMIN_TOOLS);
  }

  /** A copy of the shipped catalog files in a directory a test may edit. */
  private Path catalogCopy() throws IOException {
    Path dir = tmp.resolve("catalog");
    for (String d : CATALOG_DIRECTORIES) {
      for (ResourceFile f : ResourceSource.classpath().list(d)) {
        Path p = dir.resolve(f.name());
        Files.createDirectories(p.getParent());
        Files.write(p, f.bytes());
      }
    }
    return dir;
  }

  /** Changes one character of line {@code n} (1-based) without changing its length. */
  private void tamperLine(Path file, int n) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    String line = lines.get(n - 1);
    assertTrue(line.contains("exchange " + (n - 1)), line);
    lines.set(n - 1, line.replace("exchange " + (n - 1), "exchangE " + (n - 1)));
    Files.write(file, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void cleanPlane_passesEveryGate_oneLinePerGate() {
    ToolResult r = gateCheck("{}");

    assertTrue(r.ok(), r.content());
    List<String> lines = r.content().lines().toList();
    assertEquals(List.of("PASS G-PLANE-ROOT", "PASS G-CATALOG", "PASS G-ARTIFACTS", "PASS G-LEDGER-HOT",
        "PASS G-LEDGER-HO2-ADMIN"), lines.stream().map(l -> l.substring(0, l.indexOf(':'))).toList(), r.content());
    assertTrue(r.content().contains("G-LEDGER-HOT: HOT/ledger/governance.jsonl: 3 entries, hash chain intact"),
        r.content());
    assertTrue(r.content().contains("16 artifacts"), r.content());
  }

  @Test
  void tamperedLedgerLine_failsItsGateNamingTheLine() throws IOException {
    tamperLine(plane.root.resolve("HOT/ledger/governance.jsonl"), 2);

    ToolResult r = gateCheck("{\"gate\":\"all\"}");

    assertTrue(r.ok(), "failing gates are a successful check: " + r.content());
    String hot = r.content().lines().filter(l -> l.contains("G-LEDGER-HOT")).findFirst().orElseThrow();
    assertTrue(hot.startsWith("FAIL G-LEDGER-HOT: HOT/ledger/governance.jsonl: line 2 is bad: hash mismatch"), hot);
    assertTrue(r.content().contains("PASS G-LEDGER-HO2-ADMIN"), r.content());
  }

  @Test
  void oneGateById_runsOnlyThatGate_caseInsensitively() {
    ToolResult r = gateCheck("{\"gate\":\"g-ledger-ho2-admin\"}");

    assertTrue(r.ok());
    assertEquals("PASS G-LEDGER-HO2-ADMIN: HO2/ledger/ADMIN/workorder.jsonl: 1 entry, hash chain intact", r.content());
  }

  @Test
  void unknownGateId_isAnErrorListingTheKnownGates() {
    ToolResult r = gateCheck("{\"gate\":\"G1\"}");

    assertEquals(ToolResult.ERROR, r.status());
    assertEquals(ToolErrorCodes.UNKNOWN_GATE, r.errorCode());
    assertTrue(r.content().contains("'G1'"), r.content());
    assertTrue(r.content().contains("G-PLANE-ROOT, G-CATALOG, G-ARTIFACTS, G-LEDGER-HOT, G-LEDGER-HO2-ADMIN"),
        r.content());
    UnknownGateException e = assertThrows(UnknownGateException.class, () -> plane.gates().run("G-LEDGER-HO1"));
    assertTrue(e.getMessage().contains("G-LEDGER-HOT"));
  }

  @Test
  void artifactChangedOnDiskAfterLoad_failsGArtifactsNamingTheFile() throws IOException {
    Path dir = catalogCopy();
    ResourceSource source = ResourceSource.directory(dir);
    Catalog catalog = Catalog.load(source);
    IntegrityGates gates = IntegrityGates.of(catalog, source, plane.ledgers);
    assertTrue(gates.run(IntegrityGates.ARTIFACTS).passed());

    Files.writeString(dir.resolve("agents/admin.json"), "\n", java.nio.file.StandardOpenOption.APPEND);
    Files.delete(dir.resolve("prompts/PRM-CLASSIFY-001.json"));

    GateResult g = gates.run(IntegrityGates.ARTIFACTS);
    assertFalse(g.passed());
    assertTrue(g.detail().startsWith("2 of 16 artifacts differ"), g.detail());
    assertTrue(g.detail().contains("agents/admin.json changed since load"), g.detail());
    assertTrue(g.detail().contains("prompts/PRM-CLASSIFY-001.json is missing"), g.detail());
  }

  @Test
  void catalogThatFailedToLoad_failsGCatalogNamingTheFile_andGArtifacts() throws IOException {
    Path dir = catalogCopy();
    Files.writeString(dir.resolve("contracts/PRC-CLASSIFY-001.json"), "{ not json");
    CatalogStatus status = CatalogStatus.load(ResourceSource.directory(dir));
    assertTrue(status.loadedCatalog().isEmpty());

    IntegrityGates gates = new IntegrityGates(status, plane.ledgers);
    List<GateResult> all = gates.runAll();

    GateResult catalog = all.get(1);
    assertEquals(IntegrityGates.CATALOG, catalog.id());
    assertFalse(catalog.passed());
    assertTrue(catalog.detail().contains("contracts/PRC-CLASSIFY-001.json"), catalog.detail());
    assertFalse(all.get(2).passed(), all.get(2).line());
    assertTrue(all.get(0).passed(), "the plane root is fine");
  }

  @Test
  void missingPlaneRoot_failsGPlaneRoot() {
    try (TestPlane absent = TestPlane.at(tmp.resolve("gone"))) {
      Path root = absent.root;
      assertTrue(root.toFile().delete());

      GateResult g = absent.gates().run(IntegrityGates.PLANE_ROOT);

      assertFalse(g.passed());
      assertTrue(g.detail().contains("does not exist"), g.detail());
    }
  }

  @Test
  void planeRootThatIsAFile_failsGPlaneRoot() throws IOException {
    Path file = Files.writeString(tmp.resolve("root-file"), "x");
    try (TestPlane wrong = TestPlane.atExisting(file)) {
      GateResult g = wrong.gates().run(IntegrityGates.PLANE_ROOT);

      assertFalse(g.passed());
      assertTrue(g.detail().contains("not a directory"), g.detail());
    }
  }

  @Test
  void knownGateIds_listOneLedgerGatePerExistingLedgerFile() {
    plane.ledgers.ho1().write(LedgerEntry.builder("WO_EXECUTING").build());
    plane.ledgers.ho2("RESIDENT").write(LedgerEntry.builder("WO_PLANNED").build());

    assertEquals(List.of("G-PLANE-ROOT", "G-CATALOG", "G-ARTIFACTS", "G-LEDGER-HOT", "G-LEDGER-HO2-ADMIN",
        "G-LEDGER-HO2-RESIDENT", "G-LEDGER-HO1"), plane.gates().knownGateIds());
  }
}
