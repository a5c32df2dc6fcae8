package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpctl config}: what a worker reads only at start is shown, and what it would refuse exits 2 here. */
class ConfigCommandTest {
  @TempDir Path home;

  @Test
  void aCleanConfiguration_showsTheStartUpSettings_exit0() {
    var r = run(CliHarness.env(home), "config");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    for (String row : new String[] {"tenant caps", "fallback models", "write_file limit", "reply streaming"}) {
      assertTrue(r.out().contains(row), row + "\n" + r.describe());
    }
  }

  @Test
  void settingsAWorkerWouldRefuse_exit2_eachNamedWithTheWorkersMessage() {
    Map<String, String> bad = Map.of(
        "CP_WRITE_FILE_MAX_BYTES", "abc",
        "CP_TENANTS_FILE", home.resolve("no-such-tenants.yaml").toString(),
        "CP_FALLBACK_MODELS", "nonsense",
        "CP_AGENTS_DIR", home.resolve("no-such-dir").toString());
    for (Map.Entry<String, String> e : bad.entrySet()) {
      var env = CliHarness.env(home);
      env.put(e.getKey(), e.getValue());
      var r = run(env, "config");
      assertEquals(Cpctl.BAD_INPUT, r.code(), e + "\n" + r.describe());
      assertTrue(r.err().contains(e.getKey()), e + "\n" + r.describe());
    }
  }
}
