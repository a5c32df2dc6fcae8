package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20: the README's quick start showed a session in which the offline model offered four of
 * ADMIN's tools while the agent has five. The quick start's first reply must be what chat says.
 */
class ReadmeQuickstartTest {
  static final String COMMAND = "$ printf 'hello\\nwhat packages are installed?\\ncheck the gates\\n' | bin/cpctl chat";

  @TempDir Path home;

  static Path readme() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.exists(p.resolve("pom.xml"))
          && Files.isDirectory(p.resolve("control-plane-cli"))) {
        return p.resolve("README.md");
      }
    }
    throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
  }

  @Test
  void theQuickStartsFirstReply_isWhatChatSays_withEveryToolOfAdmin() throws Exception {
    List<String> lines = Files.readAllLines(readme(), StandardCharsets.UTF_8);
    int at = lines.indexOf(COMMAND);
    assertTrue(at >= 0, "the README's quick start shows " + COMMAND);
    String documented = lines.get(at + 1);

    CliHarness.Run r = CliHarness.runWithInput(CliHarness.env(home), "hello\n", "chat");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    String said = r.out().lines().findFirst().orElse("");
    assertEquals(said, documented, "the README's quick start reply");
    assertTrue(said.contains("gate_check, read_file, query_ledger, list_packages, write_file"), said);
  }
}
