package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.contracts.ResourceSource;
import cp.ledger.Durability;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.Json;
import cp.model.PendingApproval;
import cp.model.ToolCallRequest;
import cp.model.ToolCallResult;
import cp.model.ToolUse;
import cp.tools.IntegrityGates;
import cp.tools.ToolDispatcher;
import cp.tools.ToolErrorCodes;
import cp.worker.TemporalOptions;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.testing.TestActivityEnvironment;
import io.temporal.testing.TestEnvironmentOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, the worker's side: APPROVAL_REQUESTED and APPROVAL_DECIDED in HO1m (once each, with a
 * summary a person can judge and no secret), and a tool call that was not granted is recorded as
 * a refused TOOL_CALL naming the decision, without running the tool.
 */
class ApprovalActivitiesTest {
  static final String SID = "SES-0000a99e";
  static final String WO = "WO-0000a99e-0001-02";

  @TempDir Path root;
  private Ledgers ledgers;
  private TestActivityEnvironment env;
  private Ho1Activities ho1;
  private ApprovalActivities approvals;

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectories(root.resolve("HO2"));
    ledgers = new Ledgers(new PlaneLayout(root), LedgerSettings.all(Durability.NONE));
    Catalog catalog = Catalog.loadDefault();
    ToolDispatcher tools = ToolDispatcher.withBuiltins(catalog, ledgers,
        IntegrityGates.of(catalog, ResourceSource.classpath(), ledgers));
    env = TestActivityEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setWorkflowClientOptions(WorkflowClientOptions.newBuilder().setDataConverter(TemporalOptions.dataConverter())
            .build())
        .build());
    env.registerActivitiesImplementations(new Ho1ActivitiesImpl(catalog, null, ledgers, tools, null,
        Clock.systemUTC(), null), new ApprovalActivitiesImpl(ledgers));
    ActivityOptions o = ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(30)).build();
    ho1 = env.newActivityStub(Ho1Activities.class, o);
    approvals = env.newActivityStub(ApprovalActivities.class, o);
  }

  @AfterEach
  void tearDown() {
    env.close();
    ledgers.close();
  }

  private static ToolUse write(String content) {
    return new ToolUse("tu-1", "write_file", Json.object().put("path", "HO2/notes.md").put("content", content));
  }

  private static ApprovalResult decision(String decision, boolean granted, String by, String reason) {
    return new ApprovalResult("APR-0000a99e-0001-02-1-1", SID, 1, "write_file", decision, granted, by,
        "2026-11-23T18:00:00Z", reason, null);
  }

  private ToolCallResult call(ToolUse use, ApprovalResult approval) {
    return ho1.toolCall(new ToolCallRequest(WO, SID, "ADMIN", use, List.of("write_file"), 1, approval));
  }

  @Test
  void request_recordsOneApprovalRequested_withASummaryAndNoSecret() {
    ApprovalRequest r = new ApprovalRequest("APR-0000a99e-0001-02-1-1", SID, 1, SID + "/turn-0001", WO, "ADMIN",
        write("# notes\npassword=hunter2\nthird\n"), 1, 240, false, 1_700_000_000_000L);

    PendingApproval p = approvals.request(r);
    PendingApproval again = approvals.request(r);

    assertEquals(p.requestEntryId(), again.requestEntryId());
    List<LedgerEntry> asked = ledgers.ho1().byEventType(ApprovalActivitiesImpl.APPROVAL_REQUESTED);
    assertEquals(1, asked.size(), "recorded once");
    LedgerEntry e = asked.get(0);
    assertEquals(SID, e.sessionId());
    assertEquals("write_file", e.metaText("tool_id"));
    assertEquals(p.approvalId(), e.metaText("approval_id"));
    assertTrue(p.summary().startsWith("HO2/notes.md (31 bytes, 3 lines)"), p.summary());
    assertFalse(e.toJson(false).toString().contains("hunter2"), "no secret in the record");
    assertEquals("2023-11-14T22:13:20Z", p.requestedAt());
    assertEquals("2023-11-14T22:17:20Z", p.deadline());
    assertEquals("deny", p.onTimeout());
  }

  @Test
  void anotherToolsSummary_showsTheArgumentValuesAPersonJudges_boundedWithSecretNamedOnesHidden() {
    ToolUse use = new ToolUse("tu-2", "everything/echo", Json.object().put("message", "delete customer 42")
        .put("api_key", "sk-live-abcdefghijklmnop").put("count", 3).put("long", "y".repeat(500)));
    PendingApproval p = approvals.request(new ApprovalRequest("APR-0000a99e-0001-02-1-2", SID, 1, SID + "/turn-0001",
        WO, "ADMIN", use, 1, 240, false, 1_700_000_000_000L));

    assertTrue(p.summary().startsWith("message=\"delete customer 42\", api_key=(hidden: 24 chars), count=3, long=\"y"),
        p.summary());
    assertTrue(p.summary().endsWith("…(500 chars)"), p.summary());
    assertFalse(p.summary().contains("sk-live-abcdefghijklmnop"), p.summary());
    assertFalse(p.summary().startsWith("everything/echo"), "the tool is named beside the summary, not in it");
  }

  @Test
  void request_showsBidiAndControlCharactersEscaped_inTheSummaryAndItsRecord() {
    // "evil<U+202E>txt.sh" reads as "evilhs.txt" to a person; an ESC sequence could redraw their terminal.
    ToolUse use = new ToolUse("tu-1", "write_file", Json.object().put("path", "HO2/evil\u202Etxt.sh")
        .put("content", "line one\u001b[2J\nline\u2066 two\n"));
    PendingApproval p = approvals.request(new ApprovalRequest("APR-0000a99e-0001-02-1-1", SID, 1, SID + "/turn-0001",
        WO, "ADMIN", use, 1, 240, false, 1_700_000_000_000L));

    assertTrue(p.summary().contains("HO2/evil\\u202Etxt.sh"), p.summary());
    // The tool's own quoting already shows C0 controls (lower-case hex); bidi ones it left raw.
    assertTrue(p.summary().toLowerCase(java.util.Locale.ROOT).contains("\\u001b[2j")
        && p.summary().contains("\\u2066"), p.summary());
    for (String shown : List.of(p.summary(),
        ledgers.ho1().byEventType(ApprovalActivitiesImpl.APPROVAL_REQUESTED).get(0).metaText("summary"))) {
      assertFalse(shown.chars().anyMatch(c -> c == 0x202E || c == 0x2066 || c == 0x1b), shown);
    }
  }

  @Test
  void decided_recordsTheClientIdentityTheServiceSaw_besideTheClaimedName() {
    approvals.decided(decision(ApprovalResult.GRANTED, true, "security-officer (spoofed)", null)
        .withClientIdentity("mallory@laptop:4242"), WO);

    LedgerEntry e = ledgers.ho1().byEventType(ApprovalActivitiesImpl.APPROVAL_DECIDED).get(0);
    assertEquals("security-officer (spoofed)", e.metaText("decided_by"));
    assertEquals("mallory@laptop:4242", e.metaText("client_identity"));
  }

  @Test
  void deniedCall_isARefusedToolCallNamingTheDecision_andNothingIsWritten() {
    ToolCallResult t = call(write("hello\n"), decision(ApprovalResult.DENIED, false, "carol", "not today"));

    assertEquals("refused", t.status());
    assertEquals(ToolErrorCodes.APPROVAL_DENIED, t.errorCode());
    assertFalse(Files.exists(root.resolve("HO2/notes.md")));
    LedgerEntry e = ledgers.ho1().byId(t.entryId()).orElseThrow();
    assertTrue(e.metaText("result").contains("denied by carol (reason: not today)"), e.metaText("result"));
    assertEquals("denied", e.metaText("approval"));
  }

  @Test
  void timedOutCall_isRefusedSayingNobodyDecided() {
    ToolCallResult t = call(write("hello\n"), decision(ApprovalResult.TIMED_OUT, false, "system", null));

    assertEquals(ToolErrorCodes.APPROVAL_TIMED_OUT, t.errorCode());
    assertTrue(ledgers.ho1().byId(t.entryId()).orElseThrow().metaText("result").contains("timed out"));
    assertFalse(Files.exists(root.resolve("HO2/notes.md")));
  }

  @Test
  void grantedCall_writesTheFile_andTheToolCallNamesTheApproval() throws Exception {
    ToolCallResult t = call(write("hello\n"), decision(ApprovalResult.GRANTED, true, "alice", null));

    assertEquals("ok", t.status());
    assertEquals("hello\n", Files.readString(root.resolve("HO2/notes.md")));
    LedgerEntry e = ledgers.ho1().byId(t.entryId()).orElseThrow();
    assertEquals("APR-0000a99e-0001-02-1-1", e.metaText("approval_id"));
    String decided = approvals.decided(decision(ApprovalResult.GRANTED, true, "alice", "fine"), WO);
    assertEquals(decided, approvals.decided(decision(ApprovalResult.GRANTED, true, "alice", "fine"), WO));
    LedgerEntry d = ledgers.ho1().byId(decided).orElseThrow();
    assertEquals(ApprovalActivitiesImpl.APPROVAL_DECIDED, d.eventType());
    assertEquals("alice", d.metaText("decided_by"));
    assertEquals("granted", d.metaText("decision"));
    assertEquals("fine", d.metaText("reason"));
  }
}
