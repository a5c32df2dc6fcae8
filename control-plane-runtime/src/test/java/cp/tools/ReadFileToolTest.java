package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.ToolSpec;
import cp.ledger.Durability;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.ledger.Tier;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** read_file returns text under the agent's read globs: bounded, never binary, with clear errors. */
class ReadFileToolTest {
  @TempDir Path tmp;
  private TestPlane plane;
  private final ReadFileTool tool = new ReadFileTool();

  @BeforeEach
  void setUp() {
    plane = TestPlane.at(tmp.resolve("plane"));
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  private ToolResult read(String path) {
    return tool.run(plane.context("ADMIN"), args("{\"path\":\"" + path + "\"}"));
  }

  @Test
  void readableTextFile_returnsItsContentVerbatim() {
    plane.write("HOT/notes/today.md", "line one\nline two: ünïcödé ✓\n");

    ToolResult r = read("HOT/notes/today.md");

    assertTrue(r.ok(), r.content());
    assertEquals("line one\nline two: ünïcödé ✓\n", r.content());
  }

  @Test
  void fileOverTheLimit_isTruncatedWithANoteOfHowMuchWasShown() {
    int size = ReadFileTool.MAX_BYTES + 5_000;
    plane.write("HO1/big.log", "a".repeat(size));

    ToolResult r = read("HO1/big.log");

    assertTrue(r.ok());
    assertTrue(r.content().endsWith("\n[truncated: " + ReadFileTool.MAX_BYTES + " of " + size + " bytes]"),
        r.content().substring(r.content().length() - 80));
    assertTrue(r.content().length() < 32_000, "fits HO1's cap on tool results with the note intact");
  }

  @Test
  void truncation_neverCutsAMultiByteCharacterInTwo() {
    // One ASCII byte, then 3-byte characters: the byte limit lands inside a character.
    int whole = (ReadFileTool.MAX_BYTES - 1) / 3;
    assertTrue((ReadFileTool.MAX_BYTES - 1) % 3 != 0);
    plane.write("HO1/wide.txt", "a" + "€".repeat(ReadFileTool.MAX_BYTES));

    ToolResult r = read("HO1/wide.txt");

    String text = r.content().substring(0, r.content().indexOf("\n[truncated: "));
    assertFalse(text.contains("\uFFFD"), "no replacement character from a split sequence");
    assertEquals(1 + whole, text.length());
    assertTrue(r.content().contains("[truncated: " + (1 + 3 * whole) + " of " + (1 + 3 * ReadFileTool.MAX_BYTES)
        + " bytes]"), r.content().substring(text.length()));
  }

  @Test
  void binaryFile_isRefusedAsNotText() {
    byte[] bytes = new byte[2_000];
    Arrays.fill(bytes, (byte) 'x');
    bytes[1_500] = 0;
    plane.write("HO1/blob.bin", bytes);

    ToolResult r = read("HO1/blob.bin");

    assertEquals(ToolResult.ERROR, r.status());
    assertEquals(ToolErrorCodes.NOT_TEXT, r.errorCode());
    assertTrue(r.content().contains("HO1/blob.bin"), r.content());
    assertFalse(r.content().contains("xxx"), "no content is echoed");
  }

  @Test
  void nulByteAfterTheProbeWindow_isStillReadAsText() {
    byte[] bytes = new byte[ReadFileTool.BINARY_PROBE_BYTES + 10];
    Arrays.fill(bytes, (byte) 'y');
    bytes[ReadFileTool.BINARY_PROBE_BYTES + 5] = 0;
    plane.write("HO1/late-nul.txt", bytes);

    assertTrue(read("HO1/late-nul.txt").ok());
  }

  @Test
  void missingFile_isNotFoundNamingTheRelativePath() {
    ToolResult r = read("HO1/nothing-here.txt");

    assertEquals(ToolResult.ERROR, r.status());
    assertEquals(ToolErrorCodes.NOT_FOUND, r.errorCode());
    assertTrue(r.content().contains("'HO1/nothing-here.txt'"), r.content());
    assertTrue(r.content().contains("relative to the plane root, CP_HOME"), r.content());
    assertTrue(r.content().contains("not the project"), r.content());
    assertFalse(r.content().contains(plane.root.toString()), "the host path is not revealed: " + r.content());
  }

  @Test
  void directory_isAnErrorAskingForAFile() throws Exception {
    // Not HOT/ledger, as before issue 11: ledger directories are refused outright now.
    Files.createDirectories(plane.root.resolve("HOT/notes"));

    ToolResult r = read("HOT/notes");

    assertEquals(ToolErrorCodes.NOT_A_FILE, r.errorCode());
    assertTrue(r.content().contains("is a directory"), r.content());
  }

  @Test
  void emptyFile_saysSoInsteadOfReturningNothing() {
    plane.write("README.md", new byte[0]);

    ToolResult r = read("README.md");

    assertTrue(r.ok());
    assertTrue(r.content().contains("empty file"), r.content());
  }

  @Test
  void forbiddenFile_isRefusedByThePathPolicyBeforeAnythingIsRead() {
    plane.write("HOT/kernel/kernel.py", "SECRET_KERNEL_CODE");

    PathRefusedException e = assertThrows(PathRefusedException.class, () -> read("HOT/kernel/kernel.py"));

    assertEquals(PathRefusal.FORBIDDEN, e.refusal());
    assertFalse(e.getMessage().contains("SECRET_KERNEL_CODE"));
  }

  @Test
  void symlinkToAFileOutside_isRefusedAndNotRead() throws Exception {
    Path outside = Files.writeString(tmp.resolve("outside.txt"), "OUTSIDE", StandardCharsets.UTF_8);
    Files.createDirectories(plane.root.resolve("HO1"));
    Files.createSymbolicLink(plane.root.resolve("HO1/link.txt"), outside);

    ToolResult r = plane.dispatcher().execute("ADMIN", TestPlane.SESSION, "read_file",
        args("{\"path\":\"HO1/link.txt\"}"),
        TestPlane.ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(PathRefusal.SYMLINK_ESCAPE.code(), r.errorCode());
    assertFalse(r.content().contains("OUTSIDE"));
  }

  @Test
  void residentReadsReadmeButNotOtherAgentsLedgers() {
    plane.write("README.md", "hello resident");
    plane.write("HO2/ledger/ADMIN/workorder.jsonl", "{}");
    ToolContext resident = plane.context("RESIDENT");

    assertEquals("hello resident", tool.run(resident, args("{\"path\":\"README.md\"}")).content());
    PathRefusedException e = assertThrows(PathRefusedException.class,
        () -> tool.run(resident, args("{\"path\":\"HO2/ledger/ADMIN/workorder.jsonl\"}")));
    assertEquals(PathRefusal.NOT_PERMITTED, e.refusal());
  }

  // ---- issue 11 item 7: which root paths are relative to

  @Test
  void toolDescriptions_sayPathsAreRelativeToThePlaneRootAndWhatLivesThere() {
    for (String agent : List.of("ADMIN", "RESIDENT")) {
      ToolSpec spec = plane.catalog.agent(agent).tool("read_file").orElseThrow();
      String description = spec.description();
      assertTrue(description.contains("relative to the plane root (CP_HOME)"), agent + ": " + description);
      assertTrue(description.contains("README.md"), agent + ": " + description);
      assertTrue(description.contains("not the project's source tree"), agent + ": " + description);
      assertTrue(description.contains("query_ledger"), agent + " is pointed at the ledger tool: " + description);
      assertTrue(spec.parameters().path("properties").path("path").path("description").asText()
          .contains("relative to the plane root (CP_HOME)"), agent + ": " + spec.parameters());
    }
    assertTrue(plane.catalog.agent("ADMIN").systemPrompt().contains("relative to the plane root (CP_HOME"));
  }

  @Test
  void refusals_sayWhatThePathIsRelativeTo() {
    PathRefusedException e = assertThrows(PathRefusedException.class, () -> read("../README.md"));

    assertTrue(e.getMessage().contains("relative to the plane root, CP_HOME"), e.getMessage());
  }

  @Test
  void readme_isThePlaneRootsReadme() {
    plane.write("README.md", "# Control Plane root");

    assertEquals("# Control Plane root", read("README.md").content());
  }

  // ---- issue 11 item 1: ledger files are never readable through read_file

  private static final String OTHER_USER = "OTHER USER'S MESSAGE";

  /** Ledgers of every tier, with every file the ledger package writes beside them: .head, .torn-*, .quarantine-*. */
  private List<Path> realLedgerFiles() throws IOException {
    LedgerEntry entry = LedgerEntry.builder("ATTENTION_ASSEMBLED")
        .metadata(Json.object().put("session_id", "SES-bbbbbbbb").put("context", OTHER_USER)).build();
    for (int i = 0; i < 3; i++) {
      plane.ledgers.hot().write(entry);
      plane.ledgers.ho3().write(entry);
      plane.ledgers.ho1().write(entry);
      plane.ledgers.ho2("RESIDENT").write(entry);
      plane.ledgers.ho2("ADMIN").write(entry);
    }
    plane.ledgers.close();
    PlaneLayout layout = new PlaneLayout(plane.root);
    Path ho1 = layout.ledgerPath(Tier.HO1, null);
    // A torn final line the .head never acknowledged (a crash mid-write): cut and saved on open.
    // (A cut line the .head counts would be damage, kept in place, not a torn write.)
    Path ho1Head = ho1.resolveSibling(ho1.getFileName() + ".head");
    byte[] headBeforeLastWrite = Files.readAllBytes(ho1Head);
    try (Ledgers more = new Ledgers(layout, LedgerSettings.all(Durability.NONE))) {
      more.ho1().write(entry);
    }
    byte[] longer = Files.readAllBytes(ho1);
    Files.write(ho1, Arrays.copyOf(longer, longer.length - 20));
    Files.write(ho1Head, headBeforeLastWrite);
    Path ho2 = layout.ledgerPath(Tier.HO2, "RESIDENT");
    List<String> lines = new ArrayList<>(Files.readAllLines(ho2, StandardCharsets.UTF_8));
    lines.set(1, "{broken " + OTHER_USER);
    Files.write(ho2, lines, StandardCharsets.UTF_8);
    try (Ledgers reopened = new Ledgers(layout, LedgerSettings.all(Durability.NONE))) {
      reopened.ho1().size();
      assertTrue(reopened.ho2("RESIDENT").repair().isPresent(), "a quarantine file was written");
    }
    List<Path> files = new ArrayList<>();
    for (Tier tier : Tier.values()) {
      try (Stream<Path> walk = Files.walk(layout.ledgerDirectory(tier))) {
        walk.filter(Files::isRegularFile).forEach(files::add);
      }
    }
    List<String> names = files.stream().map(p -> p.getFileName().toString()).toList();
    assertTrue(names.stream().anyMatch(n -> n.endsWith(".head")), names.toString());
    assertTrue(names.stream().anyMatch(n -> n.contains(".torn-")), names.toString());
    assertTrue(names.stream().anyMatch(n -> n.contains(".quarantine-")), names.toString());
    return files;
  }

  @Test
  void everyLedgerFileAndSidecar_isRefusedToEveryAgent_withAClearReason() throws IOException {
    List<Path> files = realLedgerFiles();
    ToolDispatcher dispatcher = new ToolDispatcher(plane.catalog, plane.ledgers, List.of(new ReadFileTool()));

    for (Path file : files) {
      String rel = plane.root.relativize(file).toString().replace('\\', '/');
      for (String agent : List.of("ADMIN", "RESIDENT")) {
        ToolResult r = dispatcher.execute(agent, "SES-aaaaaaaa", "read_file",
            args("{\"path\":\"" + rel + "\"}"), List.of("read_file"));

        assertEquals(ToolResult.REFUSED, r.status(), agent + " " + rel + ": " + r.content());
        assertFalse(r.content().contains(OTHER_USER), agent + " " + rel + ": " + r.content());
        boolean permitted = agent.equals("ADMIN") || rel.startsWith("HO2/ledger/RESIDENT/");
        if (permitted) {
          assertEquals(PathRefusal.LEDGER_FILE.code(), r.errorCode(), agent + " " + rel + ": " + r.content());
          assertTrue(r.content().contains("never read with read_file") && r.content().contains("query_ledger"),
              r.content());
        }
      }
    }
  }

  @Test
  void residentReadingItsOwnLedger_theIssuesPath_isRefused() throws IOException {
    realLedgerFiles();

    PathRefusedException e = assertThrows(PathRefusedException.class,
        () -> tool.run(plane.context("RESIDENT"), args("{\"path\":\"HO2/ledger/RESIDENT/workorder.jsonl\"}")));

    assertEquals(PathRefusal.LEDGER_FILE, e.refusal());
    assertFalse(e.getMessage().contains(OTHER_USER));
  }

  @Test
  void ledgerDirectoryItself_andLinksToLedgers_areRefused() throws IOException {
    realLedgerFiles();
    Files.createDirectories(plane.root.resolve("HO1/notes"));
    Files.createSymbolicLink(plane.root.resolve("HO1/notes/alias.txt"),
        Path.of("../../HO2/ledger/ADMIN/workorder.jsonl"));
    Files.createSymbolicLink(plane.root.resolve("HO1/notes/dir"), Path.of("../../HOT/ledger"));

    for (String path : List.of("HOT/ledger", "HO2/ledger", "HO2/ledger/ADMIN", "HO1/notes/alias.txt",
        "HO1/notes/dir/governance.jsonl", "HO1/notes/dir/governance.jsonl.head")) {
      PathRefusedException e = assertThrows(PathRefusedException.class, () -> read(path), path);
      assertEquals(PathRefusal.LEDGER_FILE, e.refusal(), e.getMessage());
    }
  }
}
