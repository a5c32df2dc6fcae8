package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that only read change nothing under CP_HOME: a torn tail is skipped (reads stop at the
 * last complete line) with one warning naming the file, not moved to a {@code .torn-*} file; a plane
 * whose ledgers do not exist yet gets none created.
 */
class ReadOnlyCommandsTest {
  @TempDir Path home;
  @TempDir Path elsewhere;

  /** A write cut short: the start of an EXCHANGE line without its end or newline. */
  static final String TORN = "{\"entry_id\":\"LED-1234567890abcdef\",\"event_type\":\"EXCHANGE\",\"metadata\":{";

  /** Every file (its bytes) and directory (null) under {@code root}, by relative path. */
  static Map<String, String> tree(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.toList()) {
        String rel = root.relativize(p).toString();
        out.put(rel, Files.isDirectory(p) ? "<dir>" : digest(Files.readAllBytes(p)));
      }
    }
    return out;
  }

  /** A file's size and SHA-256: equal for equal bytes, short enough for a failure message. */
  static String digest(byte[] bytes) {
    try {
      return bytes.length + " bytes, sha256 " + java.util.HexFormat.of().formatHex(
          java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<List<String>> readCommands(String session) {
    return List.of(
        List.of("ledger", "query", "--tier", "hot"),
        List.of("ledger", "query", "--tier", "hot", "--session", session, "--json"),
        List.of("show", session),
        List.of("show", session, "--json"),
        List.of("sessions"),
        List.of("sessions", "--ledger"),
        List.of("spend"),
        List.of("spend", "--by", "model", "--json"),
        List.of("eval", "freeze", "--session", session, "--out", elsewhere.resolve("suite-" + System.nanoTime()
            + ".yaml").toString()));
  }

  @Test
  void aTornTail_isSkippedWithOneWarning_andNoReadingCommandChangesAnything() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    String session = CliHarness.chat(env);
    Path hot = home.resolve("HOT/ledger/governance.jsonl");
    Files.writeString(hot, TORN, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    Map<String, String> before = tree(home);
    for (List<String> cmd : readCommands(session)) {
      CliHarness.Run r = CliHarness.run(env, cmd.toArray(String[]::new));
      assertEquals(Cpctl.OK, r.code(), cmd + "\n" + r.describe());
      assertEquals(before, tree(home), cmd + " changed CP_HOME\n" + r.describe());
      List<String> warnings = r.err().lines().filter(l -> l.contains("HOT/ledger/governance.jsonl")).toList();
      assertEquals(1, warnings.size(), cmd + ": one warning naming the file\n" + r.describe());
      String w = warnings.get(0);
      assertTrue(w.contains("warning") && w.contains("incomplete") && w.contains(TORN.length() + " bytes")
          && w.contains("cpctl ledger repair --tier hot"), cmd + ": what was skipped and how it is repaired\n" + w);
    }
    // What was read is everything before the tail: the session's turns are all there.
    CliHarness.Run shown = CliHarness.run(env, "show", session);
    assertTrue(shown.out().contains("total: 2 turn(s)"), shown.describe());
  }

  @Test
  void aPlaneWithoutLedgers_getsNoneCreatedByAReadingCommand() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    String unknown = "SES-0123abcd";
    for (List<String> cmd : readCommands(unknown)) {
      Map<String, String> before = tree(home);
      CliHarness.Run r = CliHarness.run(env, cmd.toArray(String[]::new));
      assertEquals(before, tree(home), cmd + " changed CP_HOME\n" + r.describe());
    }
    assertEquals(Map.of("", "<dir>"), tree(home), "CP_HOME is as empty as it was");
  }

  /** {@code chattr} on every file and directory under {@code root}; false when this process may not. */
  private static boolean chattr(String flag, Path root) {
    try {
      Process p = new ProcessBuilder("chattr", "-R", flag, root.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Nothing is even opened for writing: with every file and directory under CP_HOME immutable ({@code chattr
   * +i}: the kernel refuses a write open, a create or a rename, even to root), each reading command still
   * works. The tenant counters of {@code spend} included (they were opened for writing and locked
   * exclusively to be read).
   */
  @Test
  void onAnImmutablePlane_everyReadingCommandStillWorks() throws Exception {
    Map<String, String> env = CliHarness.env(home);
    String session = CliHarness.chat(env);
    Files.writeString(home.resolve("HOT/ledger/governance.jsonl"), TORN, StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
    Path counters = home.resolve(cp.gateway.JsonlTenantCounters.FILE);
    Files.createDirectories(counters.getParent());
    Files.writeString(counters, "{\"op\":\"reserve\",\"key\":\"k1\",\"tenant\":\"default\",\"day\":\"2026-11-26\","
        + "\"month\":\"2026-11\",\"amount\":0.25,\"expires_ms\":" + (System.currentTimeMillis() + 3_600_000L) + "}\n");
    org.junit.jupiter.api.Assumptions.assumeTrue(chattr("+i", home),
        "chattr +i is not available to this process (needs CAP_LINUX_IMMUTABLE on a file system that has it)");
    try {
      Map<String, String> before = tree(home);
      for (List<String> cmd : readCommands(session)) {
        CliHarness.Run r = CliHarness.run(env, cmd.toArray(String[]::new));
        assertEquals(Cpctl.OK, r.code(), cmd + " on an immutable plane\n" + r.describe());
      }
      CliHarness.Run spend = CliHarness.run(env, "spend");
      assertTrue(spend.out().contains("0.25"), "the counters were read\n" + spend.describe());
      assertEquals(before, tree(home));
    } finally {
      assertTrue(chattr("-i", home), "made the plane mutable again");
    }
  }
}
