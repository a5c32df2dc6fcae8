package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.assertOneLineError;
import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wrong environment (plane root, provider key, Temporal address) gives one clear line and exit
 * 2, never a stack trace; {@code cpctl config} shows the settings with every secret masked.
 */
class EnvironmentErrorsTest {
  @TempDir Path home;

  private Map<String, String> env() {
    return CliHarness.env(home);
  }

  @Test
  void cpHomeThatIsARegularFile_isRefusedInOneLine() throws Exception {
    Path file = Files.writeString(home.resolve("not-a-dir"), "x");
    var e = env();
    e.put("CP_HOME", file.toString());
    var r = runWithInput(e, "hello\n", "chat");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_HOME") && r.err().contains("not a directory"), r::describe);
  }

  @Test
  void cpHomeThatIsARegularFile_isRefusedByLedgerCommandsToo() throws Exception {
    Path file = Files.writeString(home.resolve("not-a-dir"), "x");
    var e = env();
    e.put("CP_HOME", file.toString());
    var r = run(e, "ledger", "verify");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_HOME"), r::describe);
  }

  @Test
  void anthropicWithoutKey_isRefusedInOneLineNamingTheVariable() {
    var e = env();
    e.put("CP_PROVIDER", "anthropic");
    var r = runWithInput(e, "hello\n", "chat");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("ANTHROPIC_API_KEY"), r::describe);
  }

  @Test
  void unknownProvider_isRefusedInOneLineNamingTheVariable() {
    var e = env();
    e.put("CP_PROVIDER", "gpt-local");
    var r = run(e, "config");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_PROVIDER"), r::describe);
  }

  @Test
  void turnWithoutTemporalAddress_explainsToSetIt() {
    var r = run(env(), "turn", "--session", "SES-12345678", "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("set TEMPORAL_ADDRESS"), r::describe);
  }

  @Test
  void sessionStartWithoutTemporalAddress_explainsToSetIt() {
    var r = run(env(), "session", "start");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("set TEMPORAL_ADDRESS"), r::describe);
  }

  @Test
  void workerWithoutTemporalAddress_explainsToSetIt() {
    var r = run(env(), "worker");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("set TEMPORAL_ADDRESS"), r::describe);
  }

  @Test
  void workerWithAnUnknownFaultPoint_isRefusedInOneLineNamingTheTestOnlyVariable() throws Exception {
    var e = env();
    e.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    e.put("CP_FAULT_PAUSE", "ledger-written:lower_case");
    var r = run(e, "worker");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_FAULT_PAUSE") && r.err().contains("tests only"), r::describe);
  }

  @Test
  void temporalAddressOnAClosedPort_saysItCannotReachTemporal() throws Exception {
    var e = env();
    e.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    var r = run(e, "session", "start");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("cannot reach Temporal") && r.err().contains(e.get("TEMPORAL_ADDRESS")), r::describe);
  }

  @Test
  void temporalAddressOnAClosedPort_failsTheTurnCommandTheSameWay() throws Exception {
    var e = env();
    e.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    var r = run(e, "turn", "--session", "SES-12345678", "hello");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("cannot reach Temporal"), r::describe);
  }

  @Test
  void malformedTemporalAddress_isRefusedInOneLine() {
    var e = env();
    e.put("TEMPORAL_ADDRESS", "not an address");
    var r = run(e, "session", "start");
    assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("TEMPORAL_ADDRESS") && r.err().contains("host:port"), r::describe);
  }

  // Issue 11 item 8: CP_LOG_LEVEL=LOUD was accepted silently (logback fell back to DEBUG).
  @Test
  void aLogLevelThatIsNotOne_isRefusedInOneLineByEveryCommand() {
    for (String[] args : new String[][] {{"config"}, {"ledger", "verify"}, {"chat"}}) {
      var e = env();
      e.put("CP_LOG_LEVEL", "LOUD");
      var r = runWithInput(e, "hello\n", args);
      assertOneLineError(r, Cpctl.BAD_INPUT);
      assertEquals("cpctl: CP_LOG_LEVEL: 'LOUD' is not a log level (use TRACE, DEBUG, INFO, WARN, ERROR)",
          r.err().strip(), r::describe);
      assertEquals("", r.out(), r::describe);
    }
  }

  @Test
  void aValidLogLevel_inAnyCase_isAccepted() {
    for (String level : new String[] {"TRACE", "debug", "Info", "WARN", "error"}) {
      var e = env();
      e.put("CP_LOG_LEVEL", level);
      var r = run(e, "config");
      assertEquals(Cpctl.OK, r.code(), r::describe);
    }
  }

  @Test
  void config_masksBothApiKeys() {
    String anthropicCanary = "sk-ant-CANARY-7f3a9c1e";
    String temporalCanary = "tmprl-CANARY-52be08d4";
    var e = env();
    e.put("CP_PROVIDER", "anthropic");
    e.put("ANTHROPIC_API_KEY", anthropicCanary);
    e.put("TEMPORAL_API_KEY", temporalCanary);
    var r = run(e, "config");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    for (String canary : new String[] {anthropicCanary, temporalCanary, "CANARY", "7f3a9c1e", "52be08d4"}) {
      assertFalse(r.out().contains(canary) || r.err().contains(canary), () -> "secret shown\n" + r.describe());
    }
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("provider API key") && l.contains("masked")), r::describe);
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("TEMPORAL_API_KEY") && l.contains("masked")), r::describe);
    assertNoStackTrace(r);
  }

  @Test
  void config_showsTheEffectiveSettings() {
    var r = run(env(), "config");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains(home.toString()), r::describe);
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("provider") && l.contains("offline")), r::describe);
    assertTrue(r.out().contains("embedded"), r::describe);
  }
}
