package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.Permissions;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * write_file writes one text file under the agent's write globs, atomically, and refuses every
 * escape read_file refuses, every ledger file and the forbidden globs, with clear error results.
 */
class WriteFileToolTest {
  private static final String OUTSIDE_CONTENT = "outside-original";

  @TempDir Path tmp;
  private TestPlane plane;
  private Path outside;
  private ToolDispatcher dispatcher;

  @BeforeEach
  void setUp() throws IOException {
    plane = TestPlane.at(tmp.resolve("plane"));
    outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("target.txt"), OUTSIDE_CONTENT);
    plane.write("HO2/existing.md", "old\n");
    plane.write("HO1/notes.txt", "inside\n");
    plane.write("HOT/kernel/kernel.py", "print('kernel')\n");
    dispatcher = plane.dispatcher();
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  private ToolResult write(String agent, String path, String content, String mode) {
    ObjectNode a = Json.object().put("path", path).put("content", content);
    if (mode != null) {
      a.put("mode", mode);
    }
    return dispatcher.execute(agent, TestPlane.SESSION, WriteFileTool.ID, a, List.of(WriteFileTool.ID));
  }

  private ToolResult adminWrite(String path, String content) {
    return write("ADMIN", path, content, null);
  }

  private String read(String rel) throws IOException {
    return Files.readString(plane.root.resolve(rel), StandardCharsets.UTF_8);
  }

  /**
   * A write by ADMIN with write globs that cover everything (forbidden globs kept), so that the
   * escape itself, not a glob, refuses a path deeper than ADMIN's one-level globs reach.
   */
  private ToolResult wideWrite(String path, String content) {
    var admin = plane.catalog.agent("ADMIN");
    PathPolicy wide = new PathPolicy("ADMIN", plane.root, new Permissions(List.of("**"), List.of("**"),
        admin.permissions().forbidden()));
    ToolContext ctx = new ToolContext(admin, plane.ledgers.layout(), plane.ledgers, wide, TestPlane.SESSION);
    try {
      return new WriteFileTool(1000).run(ctx, Json.object().put("path", path).put("content", content));
    } catch (PathRefusedException e) {
      return ToolResult.refused(e.code(), e.getMessage());
    }
  }

  private static void assertRefused(ToolResult r, String code, String path) {
    if (code == null) { // allowed by the wide globs: written, not refused
      assertTrue(r.ok() || ToolErrorCodes.NOT_FOUND.equals(r.errorCode()), path + ": " + r.content());
      return;
    }
    assertEquals(ToolResult.REFUSED, r.status(), path + ": " + r.content());
    assertEquals(code, r.errorCode(), path + ": " + r.content());
    assertTrue(r.content().startsWith("write of '"), r.content());
    assertTrue(r.content().contains(PathPolicy.RELATIVE_TO), r.content());
  }

  @Test
  void newFileUnderAWriteGlob_isCreatedWithExactlyTheContent() throws IOException {
    ToolResult r = adminWrite("HO2/notes.md", "one\ntwo ✓\nthree\n");

    assertTrue(r.ok(), r.content());
    assertEquals("one\ntwo ✓\nthree\n", read("HO2/notes.md"));
    assertTrue(r.content().contains("created") && r.content().contains("3 lines"), r.content());
    try (Stream<Path> files = Files.list(plane.root.resolve("HO2"))) {
      assertEquals(List.of("existing.md", "notes.md"), files.map(p -> p.getFileName().toString()).sorted().toList(),
          "no temporary file is left beside the target");
    }
  }

  @Test
  void createOverAnExistingFile_isRefusedUnlessTheContentIsTheSame_overwriteAndAppendChangeIt() throws IOException {
    ToolResult clash = adminWrite("HO2/existing.md", "new\n");
    assertEquals(ToolErrorCodes.FILE_EXISTS, clash.errorCode(), clash.content());
    assertEquals("old\n", read("HO2/existing.md"));

    ToolResult same = adminWrite("HO2/existing.md", "old\n");
    assertTrue(same.ok(), same.content());
    assertTrue(same.content().contains("nothing was written"), same.content());

    assertTrue(write("ADMIN", "HO2/existing.md", "new\n", "overwrite").ok());
    assertEquals("new\n", read("HO2/existing.md"));
    assertTrue(write("ADMIN", "HO2/existing.md", "more\n", "append").ok());
    assertEquals("new\nmore\n", read("HO2/existing.md"));
    assertTrue(write("ADMIN", "HO1/fresh.log", "first\n", "append").ok());
    assertEquals("first\n", read("HO1/fresh.log"));
  }

  @Test
  void everyPathEscapeReadFileRefuses_isRefusedForWriting_andNothingOutsideChanges() throws IOException {
    Path evil = Files.createDirectories(tmp.resolve("plane-evil"));
    Files.createSymbolicLink(plane.root.resolve("HO2/out-link.txt"), outside.resolve("target.txt"));
    Files.createSymbolicLink(plane.root.resolve("HO2/outdir"), outside);
    Files.createSymbolicLink(plane.root.resolve("HO1/up.txt"), Path.of("../../outside/target.txt"));
    Files.createSymbolicLink(plane.root.resolve("HO1/evil"), Path.of("../../plane-evil"));
    Files.createSymbolicLink(plane.root.resolve("HO1/dangling.txt"), outside.resolve("nothing-here.txt"));

    Map<String, String> cases = Map.ofEntries(
        Map.entry("../outside/target.txt", PathRefusal.PARENT_SEGMENT.code()),
        Map.entry("HO2/../../outside/target.txt", PathRefusal.PARENT_SEGMENT.code()),
        Map.entry(outside.resolve("target.txt").toString(), PathRefusal.ABSOLUTE.code()),
        Map.entry("/etc/passwd", PathRefusal.ABSOLUTE.code()),
        Map.entry("C:\\\\evil.txt", PathRefusal.ABSOLUTE.code()),
        Map.entry("HO2/out-link.txt", PathRefusal.SYMLINK_ESCAPE.code()),
        Map.entry("HO2/outdir/target.txt", PathRefusal.SYMLINK_ESCAPE.code()),
        Map.entry("HO2/outdir/new.txt", PathRefusal.SYMLINK_ESCAPE.code()),
        Map.entry("HO1/up.txt", PathRefusal.SYMLINK_ESCAPE.code()),
        Map.entry("HO1/evil", PathRefusal.SYMLINK_ESCAPE.code()),
        Map.entry("HO1/dangling.txt", PathRefusal.DANGLING_SYMLINK.code()),
        Map.entry("HO1/a\u0000b.txt", PathRefusal.NUL_BYTE.code()),
        Map.entry("HO2/.env", PathRefusal.SECRET.code()),
        Map.entry("HO2/server.key", PathRefusal.SECRET.code()),
        Map.entry("README.md", PathRefusal.NOT_PERMITTED.code()),
        Map.entry("HO2/deeper/x.md", PathRefusal.NOT_PERMITTED.code()));
    for (Map.Entry<String, String> c : cases.entrySet()) {
      if (c.getKey().indexOf('\u0000') >= 0) {
        // Through the dispatcher a NUL in any argument is refused before the tool runs (issue 20).
        ToolResult r = adminWrite(c.getKey(), "planted");
        assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, r.errorCode(), r.content());
        assertRefused(wideWrite(c.getKey(), "planted"), c.getValue(), c.getKey());
        continue;
      }
      assertRefused(adminWrite(c.getKey(), "planted"), c.getValue().equals(PathRefusal.SYMLINK_ESCAPE.code())
          && c.getKey().chars().filter(ch -> ch == '/').count() > 1 ? PathRefusal.NOT_PERMITTED.code() : c.getValue(),
          c.getKey());
      assertRefused(wideWrite(c.getKey(), "planted"), c.getKey().equals("README.md") || c.getKey().startsWith("HO2/deeper")
          ? null : c.getValue(), c.getKey());
    }
    assertEquals(OUTSIDE_CONTENT, Files.readString(outside.resolve("target.txt")));
    try (Stream<Path> left = Files.list(outside); Stream<Path> evilFiles = Files.list(evil)) {
      assertEquals(1, left.count(), "nothing planted outside");
      assertEquals(0, evilFiles.count(), "nothing planted in the prefix-trick sibling");
    }
    assertFalse(Files.exists(plane.root.resolve("HO2/deeper")), "no directory created");
    assertEquals("planted", read("README.md"), "the wide globs allow the plane root's README; ADMIN's do not");
  }

  @Test
  void forbiddenGlob_isRefusedEvenWhereAWriteGlobAllows() throws IOException {
    var admin = plane.catalog.agent("ADMIN");
    PathPolicy wide = new PathPolicy("ADMIN", plane.root, new Permissions(List.of("**"), List.of("**"),
        admin.permissions().forbidden()));
    ToolContext ctx = new ToolContext(admin, plane.ledgers.layout(), plane.ledgers, wide, TestPlane.SESSION);

    PathRefusedException e = assertThrows(PathRefusedException.class, () -> new WriteFileTool(1000).run(ctx,
        args("{\"path\":\"HOT/kernel/kernel.py\",\"content\":\"evil\"}")));

    assertEquals(PathRefusal.FORBIDDEN, e.refusal());
    assertTrue(e.getMessage().contains("HOT/kernel/**"), e.getMessage());
    assertEquals("print('kernel')\n", read("HOT/kernel/kernel.py"));
  }

  @Test
  void everyLedgerFile_isRefusedEvenToAnAgentWhoseGlobsCoverIt_asRequestedAndThroughALink() throws IOException {
    plane.ledgers.ho1().write(LedgerEntry.builder("TOOL_CALL").decision("OK").reason("x").build());
    plane.ledgers.hot().write(LedgerEntry.builder("SESSION_START").decision("STARTED").reason("x").build());
    var admin = plane.catalog.agent("ADMIN");
    PathPolicy wide = new PathPolicy("ADMIN", plane.root, new Permissions(List.of("**"), List.of("**"), List.of()));
    ToolContext ctx = new ToolContext(admin, plane.ledgers.layout(), plane.ledgers, wide, TestPlane.SESSION);
    Files.createSymbolicLink(plane.root.resolve("HO1/alias.jsonl"), Path.of("ledger/worker.jsonl"));
    String before = read("HO1/ledger/worker.jsonl");

    for (String path : List.of("HO1/ledger/worker.jsonl", "HOT/ledger/governance.jsonl",
        "HOT/ledger/governance.jsonl.head", "HO1/ledger/worker.jsonl.torn-1", "HO1/ledger/x.quarantine-1",
        "HO1/alias.jsonl", "HO2/ledger/ADMIN/workorder.jsonl")) {
      PathRefusedException e = assertThrows(PathRefusedException.class, () -> new WriteFileTool(1000).run(ctx,
          args("{\"path\":\"" + path + "\",\"content\":\"{}\",\"mode\":\"append\"}")), path);
      assertEquals(PathRefusal.LEDGER_FILE, e.refusal(), e.getMessage());
      assertTrue(e.getMessage().contains("only the plane itself writes"), e.getMessage());
    }
    assertEquals(before, read("HO1/ledger/worker.jsonl"));
    assertRefused(adminWrite("HO2/ledger", "x"), PathRefusal.LEDGER_FILE.code(), "HO2/ledger");
  }

  @Test
  void contentOverTheConfiguredLimit_isRefusedAndNothingIsWritten() {
    ToolContext ctx = plane.context("ADMIN");
    ToolResult r = new WriteFileTool(10).run(ctx, args("{\"path\":\"HO2/big.md\",\"content\":\"01234567890\"}"));

    assertEquals(ToolErrorCodes.TOO_LARGE, r.errorCode());
    assertTrue(r.content().contains("11 bytes") && r.content().contains(WriteFileTool.MAX_BYTES_ENV), r.content());
    assertFalse(Files.exists(plane.root.resolve("HO2/big.md")));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> WriteFileTool.fromEnvironment(Map.of(WriteFileTool.MAX_BYTES_ENV, "lots")));
    assertTrue(bad.getMessage().contains(WriteFileTool.MAX_BYTES_ENV), bad.getMessage());
    assertEquals(WriteFileTool.DEFAULT_MAX_BYTES, WriteFileTool.fromEnvironment(Map.of()).maxBytes());
  }

  /** Issue 21: the built-in tools take their configuration as an argument, not from System.getenv. */
  @Test
  void theBuiltinWriteFile_takesItsLimitFromTheSettingsPassedIn() {
    ToolSettings settings = ToolSettings.fromEnv(Map.of(WriteFileTool.MAX_BYTES_ENV, "10"));
    WriteFileTool tool = BuiltinTools.all(plane.catalog, plane.gates(), settings).stream()
        .filter(t -> t instanceof WriteFileTool).map(t -> (WriteFileTool) t).findFirst().orElseThrow();
    ToolDispatcher d = ToolDispatcher.withBuiltins(plane.catalog, plane.ledgers, plane.gates(), settings);

    assertEquals(10, tool.maxBytes());
    assertEquals(WriteFileTool.DEFAULT_MAX_BYTES, ToolSettings.DEFAULTS.writeFileMaxBytes());
    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, WriteFileTool.ID,
        args("{\"path\":\"HO2/big.md\",\"content\":\"01234567890\"}"), List.of(WriteFileTool.ID));
    assertEquals(ToolErrorCodes.TOO_LARGE, r.errorCode(), r.content());
    assertThrows(IllegalArgumentException.class, () -> new ToolSettings(0));
  }

  @Test
  void residentHasNoWriteTool_andAdminNeverWritesOutsideHo2AndHo1() {
    ToolResult r = write("RESIDENT", "HO2/ledger/RESIDENT/x.md", "x", null);
    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode(), r.content());
    assertEquals(List.of("HO2/*", "HO1/*"), plane.catalog.agent("ADMIN").permissions().write());
    assertRefused(adminWrite("HOT/notes.md", "x"), PathRefusal.NOT_PERMITTED.code(), "HOT/notes.md");
  }

  @Test
  void missingDirectory_isAnErrorAndNothingIsCreated() {
    ToolResult r = new WriteFileTool(100).run(new ToolContext(plane.catalog.agent("ADMIN"), plane.ledgers.layout(),
        plane.ledgers, new PathPolicy("ADMIN", plane.root, new Permissions(List.of(), List.of("HO2/**"), List.of())),
        TestPlane.SESSION), args("{\"path\":\"HO2/new-dir/x.md\",\"content\":\"x\"}"));

    assertEquals(ToolErrorCodes.NOT_FOUND, r.errorCode(), r.content());
    assertTrue(r.content().contains("does not create directories"), r.content());
    assertFalse(Files.exists(plane.root.resolve("HO2/new-dir")));
  }

  @Test
  void summary_showsPathSizeAndFirstLines_butNeverASecretLookingLine() {
    String s = WriteFileTool.summary(args("{\"path\":\"HO2/notes.md\",\"content\":\"alpha\\nANTHROPIC_API_KEY=sk-ant-abcdefghijkl\\ngamma\\ndelta\\n\"}"));

    assertTrue(s.startsWith("HO2/notes.md (56 bytes, 4 lines)"), s);
    assertTrue(s.contains("| alpha") && s.contains("| gamma") && s.contains("…"), s);
    assertFalse(s.contains("delta"), "only the first lines: " + s);
    assertFalse(s.contains("sk-ant"), s);
    assertTrue(s.contains("[line hidden: it looks like a secret]"), s);
  }
}
