package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.TurnOutcome;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 on keyed ledgers (CP_LEDGER_HMAC_KEY): a suite frozen from them verifies with the key;
 * without it, or with another key, verify cannot prove the cases and says so (KEY, exit 1), as
 * {@code cpctl ledger verify} does, without calling it tampering.
 */
class EvalKeyedLedgerTest {
  static final String KEY = "6a".repeat(32);
  static final String OTHER_KEY = "5b".repeat(32);

  @TempDir Path home;
  @TempDir Path work;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void keyedLedgers_verifyWithTheKey_andSayKeyWithoutIt() {
    Map<String, String> keyed = Map.of("CP_LEDGER_HMAC_KEY", KEY);
    String sid;
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, keyed), PlaneRuntime::builtinTools)) {
      sid = plane.client.startSession("ADMIN");
      assertEquals(TurnOutcome.SUCCESS, plane.client.turn(sid, "hello").outcome());
      plane.client.end(sid);
    }
    Map<String, String> withKey = CliHarness.env(home);
    withKey.put("CP_LEDGER_HMAC_KEY", KEY);
    String suite = work.resolve("suite.yaml").toString();
    var f = run(withKey, "eval", "freeze", "--session", sid, "--out", suite);
    assertEquals(Cpctl.OK, f.code(), f::describe);
    var ok = run(withKey, "eval", "verify", suite);
    assertEquals(Cpctl.OK, ok.code(), ok::describe);

    var noKey = run(CliHarness.env(home), "eval", "verify", suite);
    assertEquals(Cpctl.FAILED, noKey.code(), noKey::describe);
    assertTrue(noKey.out().contains("KEY      " + sid + "#1"), noKey::describe);
    assertFalse(noKey.out().contains("EDITED"), "a missing key is not tampering: " + noKey.describe());

    Map<String, String> otherKey = CliHarness.env(home);
    otherKey.put("CP_LEDGER_HMAC_KEY", OTHER_KEY);
    var wrong = run(otherKey, "eval", "verify", suite);
    assertEquals(Cpctl.FAILED, wrong.code(), wrong::describe);
    assertTrue(wrong.out().contains("KEY      " + sid + "#1") && wrong.out().contains("another key"), wrong::describe);
  }
}
