package cp.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.contracts.Permissions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way out of the plane root is refused (CVE-2025-53109/53110: symlinks and prefix tricks),
 * and inside it the agent's globs decide, forbidden first.
 */
class PathPolicyTest {
  private static final String SECRET_CONTENT = "TOPSECRET-do-not-leak";

  @TempDir Path tmp;
  private Path root;
  private Path outside;
  private PathPolicy admin;

  @BeforeEach
  void setUp() throws IOException {
    root = Files.createDirectories(tmp.resolve("plane"));
    outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret.txt"), SECRET_CONTENT);
    write("HOT/ledger/governance.jsonl", "{}\n");
    write("HOT/kernel/kernel.py", "print('kernel')\n");
    write("HO1/notes.txt", "inside\n");
    write("README.md", "# plane\n");
    admin = PathPolicy.forAgent(Catalog.loadDefault().agent("ADMIN"), root);
  }

  private Path write(String rel, String text) throws IOException {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    return Files.writeString(p, text);
  }

  private static PathRefusedException refused(PathRefusal expected, Runnable call) {
    PathRefusedException e = assertThrows(PathRefusedException.class, call::run);
    assertEquals(expected, e.refusal(), e.getMessage());
    assertEquals(expected.code(), e.code());
    assertFalse(e.getMessage().contains(SECRET_CONTENT), e.getMessage());
    return e;
  }

  private PathPolicy policy(List<String> read, List<String> write, List<String> forbidden) {
    return new PathPolicy("TEST", root, new Permissions(read, write, forbidden));
  }

  @Test
  void readableFile_resolvesToItsRealPath() throws IOException {
    assertEquals(root.resolve("README.md").toRealPath(), admin.resolveForRead("README.md"));
    assertEquals(root.resolve("HO1/notes.txt").toRealPath(), admin.resolveForRead("./HO1//notes.txt"));
  }

  @Test
  void missingFileUnderAReadableDirectory_resolvesSoTheToolCanReportNotFound() throws IOException {
    Path p = admin.resolveForRead("HO1/nothing.txt");
    assertEquals(root.toRealPath().resolve("HO1/nothing.txt"), p);
    assertFalse(Files.exists(p));
  }

  @Test
  void parentSegments_areRefusedWhereverTheyAppear() {
    refused(PathRefusal.PARENT_SEGMENT, () -> admin.resolveForRead("../outside/secret.txt"));
    refused(PathRefusal.PARENT_SEGMENT, () -> admin.resolveForRead("HOT/../../outside/secret.txt"));
    refused(PathRefusal.PARENT_SEGMENT, () -> admin.resolveForRead("HOT/ledger/.."));
    refused(PathRefusal.PARENT_SEGMENT, () -> admin.resolveForRead("HOT\\..\\..\\outside"));
  }

  @Test
  void absolutePaths_areRefusedEvenWhenTheyPointInsideTheRoot() {
    refused(PathRefusal.ABSOLUTE, () -> admin.resolveForRead(outside.resolve("secret.txt").toString()));
    refused(PathRefusal.ABSOLUTE, () -> admin.resolveForRead(root.resolve("README.md").toString()));
    refused(PathRefusal.ABSOLUTE, () -> admin.resolveForRead("/etc/passwd"));
    refused(PathRefusal.ABSOLUTE, () -> admin.resolveForRead("C:\\Windows\\win.ini"));
  }

  @Test
  void nulByte_isRefusedAndEscapedInTheMessage() {
    PathRefusedException e = refused(PathRefusal.NUL_BYTE, () -> admin.resolveForRead("README.md\0.txt"));
    assertFalse(e.getMessage().contains("\0"));
    assertTrue(e.getMessage().contains("\\u0000"), e.getMessage());
  }

  @Test
  void emptyPath_isRefused() {
    refused(PathRefusal.EMPTY, () -> admin.resolveForRead(""));
    refused(PathRefusal.EMPTY, () -> admin.resolveForRead("   "));
    refused(PathRefusal.EMPTY, () -> admin.resolveForRead(null));
  }

  @Test
  void fileSymlinkToOutside_isRefused() throws IOException {
    Files.createSymbolicLink(root.resolve("HOT/link.txt"), outside.resolve("secret.txt"));

    PathRefusedException e = refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/link.txt"));
    assertTrue(e.getMessage().contains("HOT/link.txt"), e.getMessage());
    assertFalse(e.getMessage().contains(outside.toString()), "the link target is not revealed: " + e.getMessage());
  }

  @Test
  void directorySymlinkToOutside_isRefusedForExistingAndMissingFilesBelowIt() throws IOException {
    Files.createSymbolicLink(root.resolve("HOT/dir"), outside);

    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/dir/secret.txt"));
    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/dir/not-there.txt"));
    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/dir"));
  }

  @Test
  void relativeSymlinkClimbingOut_isRefused() throws IOException {
    Files.createSymbolicLink(root.resolve("HO1/up.txt"), Path.of("../../outside/secret.txt"));

    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HO1/up.txt"));
  }

  @Test
  void prefixTrick_siblingDirectoryNamedRootDashEvil_isOutside() throws IOException {
    Path evil = Files.createDirectories(tmp.resolve("plane-evil"));
    Files.writeString(evil.resolve("secret.txt"), SECRET_CONTENT);
    assertTrue(evil.toString().startsWith(root.toString()), "the sibling's name string-prefixes the root");
    Files.createSymbolicLink(root.resolve("HOT/evil.txt"), evil.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("HOT/evildir"), Path.of("../../plane-evil"));

    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/evil.txt"));
    refused(PathRefusal.SYMLINK_ESCAPE, () -> admin.resolveForRead("HOT/evildir/secret.txt"));
  }

  @Test
  void danglingSymlink_isRefusedBecauseItsDestinationCannotBeChecked() throws IOException {
    Files.createSymbolicLink(root.resolve("HO1/dangling.txt"), outside.resolve("does-not-exist.txt"));

    refused(PathRefusal.DANGLING_SYMLINK, () -> admin.resolveForRead("HO1/dangling.txt"));
  }

  @Test
  void symlinkInsideRootPointingInside_isAllowedWhenGlobsAllowBothNames() throws IOException {
    Files.createSymbolicLink(root.resolve("HOT/notes-alias.txt"), root.resolve("HO1/notes.txt"));
    Files.createSymbolicLink(root.resolve("HOT/ho1"), Path.of("../HO1"));

    assertEquals(root.resolve("HO1/notes.txt").toRealPath(), admin.resolveForRead("HOT/notes-alias.txt"));
    assertEquals(root.resolve("HO1/notes.txt").toRealPath(), admin.resolveForRead("HOT/ho1/notes.txt"));
  }

  @Test
  void symlinkInsideRootToAForbiddenFile_isRefusedByTheTargetsGlob() throws IOException {
    Files.createSymbolicLink(root.resolve("HO1/kernel-alias.py"), root.resolve("HOT/kernel/kernel.py"));

    PathRefusedException e = refused(PathRefusal.FORBIDDEN, () -> admin.resolveForRead("HO1/kernel-alias.py"));
    assertTrue(e.getMessage().contains("HOT/kernel/kernel.py"), e.getMessage());
    assertTrue(e.getMessage().contains("HOT/kernel/**"), e.getMessage());
  }

  @Test
  void symlinkInsideRootToAFileNoReadGlobCovers_isRefused() throws IOException {
    write("private/data.txt", "x");
    Files.createSymbolicLink(root.resolve("HO1/private-alias.txt"), root.resolve("private/data.txt"));

    refused(PathRefusal.NOT_PERMITTED, () -> admin.resolveForRead("HO1/private-alias.txt"));
  }

  @Test
  void planeRootReachedThroughASymlink_stillResolvesInside() throws IOException {
    Path linkedRoot = Files.createSymbolicLink(tmp.resolve("plane-link"), root);
    PathPolicy viaLink = PathPolicy.forAgent(Catalog.loadDefault().agent("ADMIN"), linkedRoot);

    assertEquals(root.resolve("README.md").toRealPath(), viaLink.resolveForRead("README.md"));
  }

  @Test
  void forbiddenGlob_beatsAMatchingReadGlob() {
    assertTrue(PathGlob.of("HOT/**").matches("HOT/kernel/kernel.py"), "the read glob matches too");

    PathRefusedException e = refused(PathRefusal.FORBIDDEN, () -> admin.resolveForRead("HOT/kernel/kernel.py"));
    assertTrue(e.getMessage().contains("forbidden glob 'HOT/kernel/**'"), e.getMessage());
    assertTrue(e.getMessage().contains("ADMIN"), e.getMessage());
    assertFalse(e.getMessage().contains("print('kernel')"), "file contents are never echoed");
  }

  @Test
  void singleStarReadGlob_coversOneLevel_doubleStarCoversAll() throws IOException {
    write("HOT/sub/deep.txt", "deep");
    write("HOT/top.txt", "top");
    PathPolicy oneLevel = policy(List.of("HOT/*"), List.of(), List.of());
    PathPolicy allLevels = policy(List.of("HOT/**"), List.of(), List.of());

    oneLevel.resolveForRead("HOT/top.txt");
    PathRefusedException e = refused(PathRefusal.NOT_PERMITTED, () -> oneLevel.resolveForRead("HOT/sub/deep.txt"));
    assertTrue(e.getMessage().contains("Readable: HOT/*"), e.getMessage());
    allLevels.resolveForRead("HOT/top.txt");
    allLevels.resolveForRead("HOT/sub/deep.txt");
  }

  @Test
  void pathsNoReadGlobCovers_areRefusedNamingTheReadableGlobs() {
    PathPolicy resident = PathPolicy.forAgent(Catalog.loadDefault().agent("RESIDENT"), root);

    resident.resolveForRead("README.md");
    PathRefusedException e = refused(PathRefusal.NOT_PERMITTED, () -> resident.resolveForRead("HO1/notes.txt"));
    assertTrue(e.getMessage().contains("README.md, HO2/ledger/RESIDENT/**"), e.getMessage());
    refused(PathRefusal.FORBIDDEN, () -> resident.resolveForRead("HOT/ledger/governance.jsonl"));
  }

  @Test
  void secretNames_areRefusedEvenWhenEveryPathIsReadable() throws IOException {
    PathPolicy everything = policy(List.of("**"), List.of("**"), List.of());
    for (String secret : List.of(".env", "HO1/.env", "HO1/.env.production", "HOT/server.key", "HOT/tls/cert.pem",
        "HO1/id_rsa", "HO1/id_rsa.pub", "HO1/id_ed25519", "HO1/.ssh/config", "HO1/store.p12")) {
      write(secret, SECRET_CONTENT);
      refused(PathRefusal.SECRET, () -> everything.resolveForRead(secret));
      refused(PathRefusal.SECRET, () -> everything.resolveForWrite(secret));
    }
    everything.resolveForRead("HO1/notes.txt");
  }

  @Test
  void symlinkWithAnInnocentNameToASecretFile_isRefused() throws IOException {
    write("HO1/deploy.key", SECRET_CONTENT);
    PathPolicy everything = policy(List.of("**"), List.of(), List.of());
    Files.createSymbolicLink(root.resolve("HO1/harmless.txt"), root.resolve("HO1/deploy.key"));

    refused(PathRefusal.SECRET, () -> everything.resolveForRead("HO1/harmless.txt"));
  }

  @Test
  void hardLinkedFile_isRefusedBecauseItsOtherNameMayBeOutside() throws IOException {
    Files.createLink(root.resolve("HO1/hard.txt"), outside.resolve("secret.txt"));

    refused(PathRefusal.HARD_LINK, () -> admin.resolveForRead("HO1/hard.txt"));
  }

  @Test
  void adminWritesOnlyDirectlyUnderHo2AndHo1_neverKernelSpace() throws IOException {
    assertEquals(List.of("HO2/*", "HO1/*"), Catalog.loadDefault().agent("ADMIN").permissions().write());

    assertEquals(root.toRealPath().resolve("HO1/notes.txt"), admin.resolveForWrite("HO1/notes.txt"));
    refused(PathRefusal.FORBIDDEN, () -> admin.resolveForWrite("HOT/kernel/kernel.py"));
    refused(PathRefusal.FORBIDDEN, () -> admin.resolveForWrite("HOT/scripts/gate_check.py"));
    for (String p : List.of("new.txt", "HO1/deeper/x.txt", "HOT/notes.md")) {
      PathRefusedException e = refused(PathRefusal.NOT_PERMITTED, () -> admin.resolveForWrite(p));
      assertTrue(e.getMessage().contains("Writable: HO2/*, HO1/*"), e.getMessage());
    }
    PathPolicy readOnly = PathPolicy.forAgent(Catalog.loadDefault().agent("RESIDENT"), root);
    PathRefusedException e = refused(PathRefusal.NOT_PERMITTED, () -> readOnly.resolveForWrite("HO1/notes.txt"));
    assertTrue(e.getMessage().contains("no write permission at all"), e.getMessage());
  }

  @Test
  void writeGlobs_allowNewFilesInsideAndRefuseForbiddenOrUncoveredOnes() throws IOException {
    PathPolicy writer = policy(List.of("**"), List.of("HO1/**", "HOT/**"), List.of("HOT/kernel/**"));

    assertEquals(root.toRealPath().resolve("HO1/out/new.txt"), writer.resolveForWrite("HO1/out/new.txt"));
    refused(PathRefusal.FORBIDDEN, () -> writer.resolveForWrite("HOT/kernel/evil.py"));
    refused(PathRefusal.NOT_PERMITTED, () -> writer.resolveForWrite("README.md"));
  }

  @Test
  void writeThroughADirectorySymlinkToOutside_isRefused() throws IOException {
    PathPolicy writer = policy(List.of(), List.of("HO1/**"), List.of());
    Files.createSymbolicLink(root.resolve("HO1/out"), outside);

    refused(PathRefusal.SYMLINK_ESCAPE, () -> writer.resolveForWrite("HO1/out/planted.txt"));
    assertFalse(Files.exists(outside.resolve("planted.txt")));
  }

  @Test
  void missingPlaneRoot_refusesEverything() {
    PathPolicy nowhere = PathPolicy.forAgent(Catalog.loadDefault().agent("ADMIN"), tmp.resolve("no-such-root"));

    PathRefusedException e = refused(PathRefusal.UNRESOLVABLE, () -> nowhere.resolveForRead("README.md"));
    assertTrue(e.getMessage().contains("plane root"), e.getMessage());
  }

  @Test
  void hugeRequestedPath_isQuotedBoundedInTheMessage() throws IOException {
    String huge = "HO1/" + "a".repeat(5_000) + "/../x";
    PathRefusedException e = refused(PathRefusal.PARENT_SEGMENT, () -> admin.resolveForRead(huge));
    assertTrue(e.getMessage().length() < PathPolicy.MAX_QUOTED_PATH_CHARS + 300, e.getMessage());
    assertEquals(SECRET_CONTENT, new String(Files.readAllBytes(outside.resolve("secret.txt")),
        StandardCharsets.UTF_8), "nothing outside was touched");
  }
}
