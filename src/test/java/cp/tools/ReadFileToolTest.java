package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
    assertFalse(r.content().contains(plane.root.toString()), "the host path is not revealed: " + r.content());
  }

  @Test
  void directory_isAnErrorAskingForAFile() throws Exception {
    Files.createDirectories(plane.root.resolve("HOT/ledger"));

    ToolResult r = read("HOT/ledger");

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

    ToolResult r = plane.dispatcher().execute("ADMIN", "read_file", args("{\"path\":\"HO1/link.txt\"}"),
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
}
