package cp.cli;

import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 7: what a person reads from the offline model in {@code cpctl chat}, with the
 * real tools on a real plane. It read like debug output: one 1,500-character line of SHA-256
 * hashes for the packages, raw ledger JSON cut mid-word for the exchanges, and "Attention found
 * 18 fragments …; the first reads: "## session_conversation"" for an open question.
 */
class OfflineAnswersTest {
  /** A line a person reads in a terminal without scrolling sideways. */
  static final int READABLE_LINE = 160;
  static final Pattern SHA256 = Pattern.compile("\\b[0-9a-f]{64}\\b");

  @TempDir static Path home;
  static List<String> replies;

  /** The replies of one piped chat, each the text between two footers. */
  @BeforeAll
  static void chat() {
    var r = runWithInput(CliHarness.env(home), "hello\nwhat packages are installed?\nshow the last exchanges\n"
        + "why is the sky blue?\nexit\n", "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    replies = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : r.out().lines().toList()) {
      if (line.startsWith("  [")) {
        replies.add(current.toString().strip());
        current.setLength(0);
      } else if (!line.startsWith("Session ")) {
        current.append(line).append('\n');
      }
    }
    assertEquals(4, replies.size(), r::describe);
  }

  static void assertReadable(String reply) {
    for (String line : reply.lines().toList()) {
      assertTrue(line.length() <= READABLE_LINE, "a line of " + line.length() + " characters:\n" + reply);
    }
    assertFalse(SHA256.matcher(reply).find(), "no SHA-256 hashes:\n" + reply);
    assertFalse(reply.contains("{\"") || reply.contains("\":"), "no raw JSON:\n" + reply);
  }

  @Test
  void installedPackages_areAShortListByKind_withoutHashes() {
    String reply = replies.get(1);
    assertReadable(reply);
    assertTrue(reply.startsWith("16 packages are installed:"), reply);
    assertTrue(reply.contains("\n- 4 contracts: PRC-CLASSIFY-001 1.0.0, PRC-DEGRADED-001 1.0.0, PRC-EXECUTE-001 1.0.0, "
        + "PRC-SYNTHESIZE-001 1.0.0"), reply);
    assertTrue(reply.contains("\n- 2 agents: ADMIN 1.0.0, RESIDENT 1.0.0"), reply);
    assertFalse(reply.contains("more"), "every package is named:\n" + reply);
  }

  @Test
  void lastExchanges_areOneSummaryLinePerExchange() {
    String reply = replies.get(2);
    assertReadable(reply);
    assertFalse(reply.contains("…"), "nothing cut mid-word:\n" + reply);
    List<String> items = reply.lines().filter(l -> l.startsWith("- ")).toList();
    assertTrue(items.size() >= 4, reply);
    assertTrue(items.stream().allMatch(l -> l.contains("EXCHANGE") && l.matches(".*\\d+ in / \\d+ out tokens.*")), reply);
    assertTrue(items.stream().anyMatch(l -> l.contains("PRC-SYNTHESIZE-001") && l.contains("turn 2")), reply);
    assertTrue(items.stream().anyMatch(l -> l.contains("PRC-CLASSIFY-001")), reply);
  }

  @Test
  void anOpenQuestion_getsAnHonestAnswerOfWhatTheOfflineModelCanDo() {
    String reply = replies.get(3);
    assertReadable(reply);
    assertTrue(reply.contains("I am the offline model"), reply);
    assertTrue(reply.contains("why is the sky blue?"), reply);
    for (String can : List.of("what packages are installed?", "read README.md", "check the gates",
        "show the last exchanges")) {
      assertTrue(reply.contains(can), "offers '" + can + "':\n" + reply);
    }
    assertFalse(reply.contains("##") || reply.contains("fragment"), "no attention internals:\n" + reply);
  }
}
