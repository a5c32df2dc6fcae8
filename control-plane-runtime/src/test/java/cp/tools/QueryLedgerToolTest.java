package cp.tools;

import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.LedgerScope;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** query_ledger reads real ledgers newest first, filtered, bounded, and only where the agent may read. */
class QueryLedgerToolTest {
  @TempDir Path tmp;
  private TestPlane plane;
  private QueryLedgerTool tool;

  @BeforeEach
  void setUp() {
    plane = TestPlane.at(tmp.resolve("plane"));
    tool = new QueryLedgerTool(plane.catalog);
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  private String hot(String eventType, String session, String agentId) {
    return plane.ledgers.hot().write(LedgerEntry.builder(eventType).decision("SUCCESS").reason(eventType + " " + session)
        .metadata(Json.object().put("session_id", session).put("agent_id", agentId)).build());
  }

  private ToolResult query(String agentClass, String json) {
    return tool.run(plane.context(agentClass), args(json));
  }

  private static List<JsonNode> lines(ToolResult r) {
    assertTrue(r.ok(), r.content());
    return r.content().lines().map(Json::parse).toList();
  }

  private static List<String> ids(ToolResult r) {
    return lines(r).stream().map(n -> n.get("entry_id").asText()).toList();
  }

  @Test
  void eventTypeFilter_returnsMatchingEntriesNewestFirst() {
    String a = hot("EXCHANGE", "SES-a", "admin-001");
    hot("SESSION_START", "SES-a", "admin-001");
    String b = hot("EXCHANGE", "SES-b", "admin-001");
    String c = hot("EXCHANGE", "SES-a", "admin-001");

    ToolResult r = query("ADMIN", "{\"tier\":\"hot\",\"event_type\":\"EXCHANGE\",\"max_entries\":10}");

    assertEquals(List.of(c, b, a), ids(r));
    JsonNode first = lines(r).get(0);
    assertEquals("EXCHANGE", first.get("event_type").asText());
    assertEquals("SUCCESS", first.get("decision").asText());
    assertEquals("SES-a", first.path("metadata").path("session_id").asText());
    assertTrue(first.has("timestamp") && first.has("reason"));
    assertFalse(first.has("hash"), "chain fields are left out");
  }

  @Test
  void sessionFilter_combinesWithEventType() {
    String a = hot("EXCHANGE", "SES-a", "admin-001");
    String start = hot("SESSION_START", "SES-a", "admin-001");
    hot("EXCHANGE", "SES-b", "admin-001");

    assertEquals(List.of(start, a), ids(query("ADMIN", "{\"tier\":\"hot\",\"session_id\":\"SES-a\"}")));
    assertEquals(List.of(a), ids(query("ADMIN",
        "{\"tier\":\"hot\",\"session_id\":\"SES-a\",\"event_type\":\"EXCHANGE\"}")));
  }

  @Test
  void maxEntries_keepsTheNewest() {
    hot("EXCHANGE", "SES-a", "admin-001");
    String second = hot("EXCHANGE", "SES-a", "admin-001");
    String third = hot("EXCHANGE", "SES-a", "admin-001");

    assertEquals(List.of(third, second), ids(query("ADMIN", "{\"tier\":\"hot\",\"max_entries\":2}")));
  }

  @Test
  void maxEntriesAboveTheCeiling_isClampedWhenTheSchemaDoesNotStopIt() {
    for (int i = 0; i < QueryLedgerTool.MAX_ENTRIES + 5; i++) {
      plane.ledgers.ho1().write(LedgerEntry.builder("TOOL_CALL").build());
    }

    assertEquals(QueryLedgerTool.MAX_ENTRIES, ids(query("ADMIN", "{\"tier\":\"ho1\",\"max_entries\":1000}")).size());
  }

  @Test
  void residentIsRefusedTheHotLedger_byItsPathPolicy() {
    hot("EXCHANGE", "SES-a", "admin-001");

    PathRefusedException e = assertThrows(PathRefusedException.class, () -> query("RESIDENT", "{\"tier\":\"hot\"}"));

    assertEquals(PathRefusal.FORBIDDEN, e.refusal());
    assertTrue(e.getMessage().contains("HOT/ledger/governance.jsonl"), e.getMessage());
  }

  @Test
  void residentAskingForHotThroughTheDispatcher_isRefusedByItsSchema() {
    ToolResult r = plane.dispatcher().execute("RESIDENT", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"hot\"}"),
        List.of("query_ledger"));

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, r.errorCode());
  }

  @Test
  void residentCannotReadAnotherClassesHo2Ledger() {
    plane.ledgers.ho2("ADMIN").write(LedgerEntry.builder("WO_PLANNED").build());

    PathRefusedException e = assertThrows(PathRefusedException.class,
        () -> query("RESIDENT", "{\"tier\":\"ho2\",\"agent_class\":\"ADMIN\"}"));
    assertEquals(PathRefusal.NOT_PERMITTED, e.refusal());
  }

  @Test
  void ho2_defaultsToTheCallersOwnClass_andAdminMayNameAnother() {
    String adminWo = plane.ledgers.ho2("ADMIN").write(LedgerEntry.builder("WO_PLANNED").reason("admin").build());
    String residentWo = plane.ledgers.ho2("RESIDENT").write(LedgerEntry.builder("WO_PLANNED").reason("res")
        .metadata(Json.object().put("session_id", TestPlane.SESSION)).build());

    assertEquals(List.of(adminWo), ids(query("ADMIN", "{\"tier\":\"ho2\"}")));
    assertEquals(List.of(residentWo), ids(query("RESIDENT", "{\"tier\":\"ho2\"}")));
    assertEquals(List.of(residentWo), ids(query("ADMIN", "{\"tier\":\"ho2\",\"agent_class\":\"RESIDENT\"}")));
  }

  @Test
  void agentClassOnOtherTiers_filtersByAgentClassOrTheClassesAgentId() {
    String admin1 = hot("EXCHANGE", "SES-a", "admin-001");
    for (int i = 0; i < 30; i++) {
      hot("EXCHANGE", "SES-r", "resident-001");
    }
    String admin2 = plane.ledgers.hot().write(LedgerEntry.builder("SESSION_START")
        .metadata(Json.object().put("session_id", "SES-x").put("agent_class", "ADMIN")).build());
    for (int i = 0; i < 30; i++) {
      hot("EXCHANGE", "SES-r", "resident-001");
    }

    assertEquals(List.of(admin2, admin1), ids(query("ADMIN", "{\"tier\":\"hot\",\"agent_class\":\"ADMIN\","
        + "\"max_entries\":2}")));
  }

  @Test
  void missingLedger_isAnEmptyTierNotAnError_andIsNotCreated() {
    ToolResult r = query("ADMIN", "{\"tier\":\"ho3\"}");

    assertTrue(r.ok(), r.content());
    assertTrue(r.content().startsWith("no entries"), r.content());
    assertTrue(r.content().contains("HO3/ledger/anchors.jsonl"), r.content());
    assertFalse(Files.exists(plane.root.resolve("HO3/ledger/anchors.jsonl")));
  }

  @Test
  void noMatchingEntries_isOkAndSaysWhichFilterFoundNothing() {
    hot("EXCHANGE", "SES-a", "admin-001");

    ToolResult r = query("ADMIN", "{\"tier\":\"hot\",\"event_type\":\"DEGRADATION\"}");

    assertTrue(r.ok());
    assertTrue(r.content().contains("no entries") && r.content().contains("event_type=DEGRADATION"), r.content());
  }

  @Test
  void largeMetadataFields_areShortened() {
    String prompt = "P".repeat(10_000);
    plane.ledgers.hot().write(LedgerEntry.builder("EXCHANGE").metadata(Json.object().put("session_id", "SES-a")
        .put("prompt", prompt).put("response", "R".repeat(5_000)).put("model_id", "offline")).build());

    ToolResult r = query("ADMIN", "{\"tier\":\"hot\"}");

    JsonNode meta = lines(r).get(0).get("metadata");
    assertTrue(r.content().length() < 1_000, r.content().length() + " chars");
    assertTrue(meta.get("prompt").asText().endsWith("[10000 chars]"), meta.get("prompt").asText());
    assertTrue(meta.get("response").asText().length() <= CompactEntry.LARGE_FIELD_CHARS + 20);
    assertEquals("offline", meta.get("model_id").asText());
    assertEquals("SES-a", meta.get("session_id").asText());
  }

  @Test
  void output_staysUnderItsLimitAndSaysHowManyEntriesWereLeftOut() {
    for (int i = 0; i < QueryLedgerTool.MAX_ENTRIES; i++) {
      writeWideEntry(i);
    }

    ToolResult r = query("ADMIN", "{\"tier\":\"ho1\",\"max_entries\":100}");

    assertTrue(r.ok());
    assertTrue(r.content().length() <= QueryLedgerTool.MAX_OUTPUT_CHARS + 300, r.content().length() + " chars");
    assertTrue(r.content().contains("more matching entries not shown"), r.content().substring(r.content().length() - 200));
  }

  // ---- issue 11: an agent's tools see only its own session's records unless its config grants more

  private String residentEntry(String eventType, String session, String text) {
    var meta = Json.object();
    if (session != null) {
      meta.put("session_id", session);
    }
    return plane.ledgers.ho2("RESIDENT").write(LedgerEntry.builder(eventType).reason(text)
        .metadata(meta.put("context", text)).build());
  }

  @Test
  void shippedConfigs_grantCrossSessionReadsToAdminOnly() {
    assertEquals(LedgerScope.ALL, plane.catalog.agent("ADMIN").permissions().ledgerScope());
    assertEquals(LedgerScope.SESSION, plane.catalog.agent("RESIDENT").permissions().ledgerScope());
  }

  @Test
  void sessionScopedAgent_readsOnlyItsOwnSessionsEntries_withoutNamingIt() {
    String mine = residentEntry("WO_PLANNED", "SES-aaaaaaaa", "my question");
    residentEntry("ATTENTION_ASSEMBLED", "SES-bbbbbbbb", "OTHER USER'S MESSAGE");
    residentEntry("LEDGER_REPAIRED", null, "plane-wide entry without a session");
    String mineToo = residentEntry("WO_QUALITY_GATE", "SES-aaaaaaaa", "my answer");

    ToolResult r = tool.run(plane.context("RESIDENT", "SES-aaaaaaaa"), args("{\"tier\":\"ho2\",\"max_entries\":20}"));

    assertEquals(List.of(mineToo, mine), ids(r));
    assertFalse(r.content().contains("OTHER USER"), r.content());
    assertFalse(r.content().contains("plane-wide"), "entries of no session are not this session's: " + r.content());
  }

  @Test
  void sessionScopedAgent_askingForAnotherSession_isRefusedSayingItMayReadOnlyItsOwn() {
    residentEntry("ATTENTION_ASSEMBLED", "SES-bbbbbbbb", "OTHER USER'S MESSAGE");

    ToolResult r = tool.run(plane.context("RESIDENT", "SES-aaaaaaaa"),
        args("{\"tier\":\"ho2\",\"session_id\":\"SES-bbbbbbbb\"}"));

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.OTHER_SESSION, r.errorCode());
    assertTrue(r.content().contains("may only read its own session"), r.content());
    assertTrue(r.content().contains("SES-bbbbbbbb") && r.content().contains("SES-aaaaaaaa"), r.content());
    assertFalse(r.content().contains("OTHER USER"), r.content());
  }

  @Test
  void sessionScopedAgent_mayNameItsOwnSession() {
    String mine = residentEntry("WO_PLANNED", "SES-aaaaaaaa", "mine");
    residentEntry("WO_PLANNED", "SES-bbbbbbbb", "theirs");

    assertEquals(List.of(mine), ids(tool.run(plane.context("RESIDENT", "SES-aaaaaaaa"),
        args("{\"tier\":\"ho2\",\"session_id\":\"SES-aaaaaaaa\"}"))));
  }

  @Test
  void sessionScopedCallOfNoSession_readsNothing() {
    residentEntry("WO_PLANNED", "SES-bbbbbbbb", "OTHER USER'S MESSAGE");

    ToolResult r = tool.run(plane.context("RESIDENT", null), args("{\"tier\":\"ho2\"}"));

    assertEquals(ToolErrorCodes.OTHER_SESSION, r.errorCode());
    assertTrue(r.content().contains("belongs to no session"), r.content());
    assertFalse(r.content().contains("OTHER USER"), r.content());
  }

  @Test
  void adminWithLedgerScopeAll_readsAnySession() {
    residentEntry("WO_PLANNED", "SES-aaaaaaaa", "one");
    String other = residentEntry("WO_PLANNED", "SES-bbbbbbbb", "two");

    assertEquals(List.of(other), ids(tool.run(plane.context("ADMIN", "SES-aaaaaaaa"),
        args("{\"tier\":\"ho2\",\"agent_class\":\"RESIDENT\",\"session_id\":\"SES-bbbbbbbb\"}"))));
  }

  @Test
  void theCallingSession_travelsThroughTheDispatcher() {
    String mine = residentEntry("WO_PLANNED", "SES-aaaaaaaa", "mine");
    residentEntry("WO_PLANNED", "SES-bbbbbbbb", "OTHER USER'S MESSAGE");
    ToolDispatcher d = plane.dispatcher();

    ToolResult own = d.execute("RESIDENT", "SES-aaaaaaaa", "query_ledger", args("{\"tier\":\"ho2\"}"),
        List.of("query_ledger"));
    ToolResult other = d.execute("RESIDENT", "SES-aaaaaaaa", "query_ledger",
        args("{\"tier\":\"ho2\",\"session_id\":\"SES-bbbbbbbb\"}"), List.of("query_ledger"));

    assertEquals(List.of(mine), ids(own));
    assertEquals(ToolErrorCodes.OTHER_SESSION, other.errorCode());
    assertFalse(other.content().contains("OTHER USER"), other.content());
  }

  /** An entry with many mid-sized fields, so a hundred of them exceed the output limit. */
  private void writeWideEntry(int i) {
    var meta = Json.object().put("session_id", "SES-" + i);
    for (int f = 0; f < 10; f++) {
      meta.put("field_" + f, "v".repeat(100));
    }
    plane.ledgers.ho1().write(LedgerEntry.builder("WO_EXECUTING").metadata(meta).build());
  }
}
