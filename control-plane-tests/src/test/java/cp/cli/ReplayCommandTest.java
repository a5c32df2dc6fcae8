package cp.cli;

import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl replay FILE}: a committed history replays against this build; bad input is exit 2. */
class ReplayCommandTest {
  @TempDir Path home;

  static Path history(String name) throws Exception {
    return Path.of(ReplayCommandTest.class.getResource("/histories/" + name).toURI());
  }

  @Test
  void committedPlainTurnHistory_replaysDeterministically() throws Exception {
    var r = run(CliHarness.env(home), "replay", history("plain-turn.json").toString());
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().startsWith("OK ") && r.out().contains("TurnWorkflow") && r.out().contains("deterministic"),
        r::describe);
    assertEquals("", r.err(), r::describe);
  }

  @Test
  void committedSessionHistory_replaysDeterministically() throws Exception {
    var r = run(CliHarness.env(home), "replay", history("plain-session.json").toString());
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("SessionWorkflow") && r.out().contains("deterministic"), r::describe);
  }

  @Test
  void anEncryptedHistoryWithoutItsKey_failsInOneLineNamingTheKey_theStackOnlyWithVerbose() throws Exception {
    Path encrypted = history("encrypted-turn.json");
    Map<String, String> env = new java.util.HashMap<>(CliHarness.env(home));
    env.remove("CP_PAYLOAD_KEY");
    var r = run(env, "replay", encrypted.toString());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    String fail = r.out().lines().filter(l -> l.startsWith("FAIL")).findFirst().orElse("");
    assertTrue(fail.endsWith("but CP_PAYLOAD_KEY is not set: set it to the key of the workers that wrote this history"),
        r::describe);
    assertFalse(r.out().contains("\tat ") || r.out().contains("Caused by"), "no stack without --verbose: " + r.describe());
    var verbose = run(env, "--verbose", "replay", encrypted.toString());
    assertTrue(verbose.out().contains("Caused by: cp.worker.codec.PayloadKeyMismatchException"), verbose::describe);
  }

  @Test
  void aHistoryTheCodeNoLongerMakes_isNamedNonDeterministic_inOneLine() throws Exception {
    String json = Files.readString(history("plain-turn.json"));
    // An activity type the code never schedules: replay must report non-determinism.
    Path changed = home.resolve("changed-turn.json");
    Files.writeString(changed, json.replaceFirst("\"Ho1LlmRound\"", "\"NoSuchActivity\""));
    assertTrue(Files.readString(changed).contains("NoSuchActivity"), "the history has an activity to rename");
    var r = run(CliHarness.env(home), "replay", changed.toString());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    String fail = r.out().lines().filter(l -> l.startsWith("FAIL")).findFirst().orElse("");
    assertTrue(fail.contains("non-deterministic") || fail.contains("TMPRL1100"), r::describe);
    assertFalse(r.out().contains("\tat "), r::describe);
  }

  @Test
  void garbageFile_isRefusedInOneLine() throws Exception {
    Path garbage = Files.write(home.resolve("garbage.json"), new byte[] {'{', 'n', 'o', 't', 0x01, (byte) 0xff});
    var r = run(CliHarness.env(home), "replay", garbage.toString());
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains(garbage.toString()), r::describe);
  }

  @Test
  void jsonThatIsNotAHistory_isRefusedInOneLine() throws Exception {
    Path notHistory = Files.writeString(home.resolve("other.json"), "{\"events\": []}");
    var r = run(CliHarness.env(home), "replay", notHistory.toString());
    assertOneLineError(r, Cpctl.BAD_INPUT);
  }

  @Test
  void missingFile_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "replay", home.resolve("nope.json").toString());
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("does not exist"), r::describe);
  }

  @Test
  void neitherFileNorSession_isRefusedInOneLine() {
    var r = run(CliHarness.env(home), "replay");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("FILE") && r.err().contains("--session"), r::describe);
  }

  @Test
  void bothFileAndSession_isRefusedInOneLine() throws Exception {
    var r = run(CliHarness.env(home), "replay", history("plain-turn.json").toString(), "--session", "SES-12345678");
    assertOneLineError(r, Cpctl.BAD_INPUT);
  }

  @Test
  void sessionWithoutTemporalAddress_explainsToSetIt() {
    var r = run(CliHarness.env(home), "replay", "--session", "SES-12345678");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("TEMPORAL_ADDRESS"), r::describe);
  }

  /** A malformed id said what the form is, before anything else (it used to ask for TEMPORAL_ADDRESS, or the service). */
  @Test
  void malformedSessionId_isRefusedInOneLine_sayingTheForm() {
    var r = run(CliHarness.env(home), "replay", "--session", "ses-1");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("'ses-1' is not a session id (expected SES- and 8 hex digits"), r::describe);
  }
}
