package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.tools.ToolListing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tool lists a session was offered tools from are in HO1m once per session, server and
 * hash: offered again (another round, a retried activity) nothing is added; a server whose list
 * changed shows a second entry with the new hash; another session records its own.
 */
class McpToolListsTest {
  @TempDir Path tmp;

  @Test
  void aListIsRecordedOncePerSessionAndHash_aChangedServerShowsItsNewHash() throws Exception {
    try (Ledgers ledgers = new Ledgers(new PlaneLayout(Files.createDirectories(tmp.resolve("home"))),
        LedgerSettings.defaults())) {
      ToolListing before = new ToolListing("mcp:everything", "aaaa1111", List.of("echo", "get-sum"));
      ToolListing after = new ToolListing("mcp:everything", "bbbb2222", List.of("echo", "get-sum", "get-env"));
      ToolListing memory = new ToolListing("mcp:memory", "cccc3333", List.of("read_graph"));

      McpToolLists.record(ledgers.ho1(), "SES-00000001", "WO-00000001-0001-02", List.of(before, memory));
      McpToolLists.record(ledgers.ho1(), "SES-00000001", "WO-00000001-0001-02", List.of(before, memory));
      McpToolLists.record(ledgers.ho1(), "SES-00000001", "WO-00000001-0002-02", List.of(after));
      McpToolLists.record(ledgers.ho1(), "SES-00000002", "WO-00000002-0001-02", List.of(after));

      List<LedgerEntry> first = ledgers.ho1().bySession("SES-00000001").stream()
          .filter(e -> "MCP_TOOL_LIST".equals(e.eventType())).toList();
      assertEquals(List.of("mcp:everything aaaa1111", "mcp:memory cccc3333", "mcp:everything bbbb2222"),
          first.stream().map(e -> e.metaText("origin") + " " + e.metaText("hash")).toList());
      assertEquals("[\"echo\",\"get-sum\",\"get-env\"]", first.get(2).metadata().path("tools").toString());
      assertEquals(3, first.get(2).metadata().path("tool_count").asInt());
      assertEquals(1, ledgers.ho1().bySession("SES-00000002").size(), "another session records the list it saw");
    }
  }
}
