package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat in the C locale ({@code LC_ALL=C}, what a container or cron job without {@code LANG}
 * gives): cpctl reads its input as UTF-8 in any locale, and must write the reply in UTF-8 too,
 * not print each character beyond ASCII (the user's own words echoed back, the footer's '·') as '?'.
 */
class CLocaleOutputTest {
  static final String WORDS = "café ✓ naïve Ωmega";

  @TempDir Path home;
  @TempDir Path procs;

  @Test
  void chatInTheCLocale_writesItsReplyAndFooterInUtf8() throws Exception {
    try (CpctlProcesses p = CpctlProcesses.onClasspath(procs)) {
      Map<String, String> env = new java.util.HashMap<>(CliHarness.env(home));
      env.put("LC_ALL", "C");
      env.put("LANG", "C");
      var chat = p.startInteractive("chat", env, "chat");
      chat.type(WORDS + "\n");
      chat.process.getOutputStream().close();

      assertEquals(0, chat.awaitExit(), chat.describe());
      String out = new String(Files.readAllBytes(chat.out), StandardCharsets.UTF_8);
      assertTrue(out.contains(WORDS), "the offline model echoes the words; stdout:\n" + out);
      assertTrue(out.contains("[success · tokens"), out);
      assertTrue(!out.contains("caf?"), out);
    }
  }
}
