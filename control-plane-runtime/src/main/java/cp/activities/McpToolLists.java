package cp.activities;

import cp.ledger.LedgerEntry;
import cp.ledger.LedgerStream;
import cp.model.EventType;
import cp.tools.ToolListing;
import java.util.List;

/**
 * Records the MCP tool lists a session is offered tools from (issue 22): one {@code MCP_TOOL_LIST}
 * entry in HO1m per session, server and list hash, the first time a round offers that server's
 * tools. A server that changed its tools (a new tool, another description or schema) has another
 * hash, so the session's record shows the change; the same list is not recorded twice, however
 * many rounds offer it. The key makes the write idempotent across retries and rounds.
 */
final class McpToolLists {
  private McpToolLists() {}

  static void record(LedgerStream ho1, String sessionId, String woId, List<ToolListing> listings) {
    for (ToolListing l : listings) {
      String key = EventType.MCP_TOOL_LIST.wire() + "/" + sessionId + "/" + l.origin() + "/" + l.hash();
      if (ho1.idForKey(key).isPresent()) {
        continue;
      }
      var meta = Ho1ActivitiesImpl.ho1Meta(woId, sessionId).put("origin", l.origin()).put("hash", l.hash())
          .put("tool_count", l.tools().size());
      var names = meta.putArray("tools");
      l.tools().forEach(names::add);
      ho1.write(LedgerEntry.builder(EventType.MCP_TOOL_LIST.wire()).submissionId(woId).decision("LISTED")
          .reason(l.origin() + " offered " + l.tools().size() + " tools (list " + shortHash(l.hash()) + ")")
          .metadata(meta).idempotencyKey(key).build());
    }
  }

  private static String shortHash(String hash) {
    return hash.length() <= 12 ? hash : hash.substring(0, 12);
  }

}
