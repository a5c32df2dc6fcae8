package cp.tools;

import static cp.tools.TestPlane.ALL_ADMIN_TOOLS;
import static cp.tools.TestPlane.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.LedgerEntry;
import cp.model.Json;
import cp.model.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dispatcher's checks run in order, and nothing a tool does reaches the caller as an exception. */
class ToolDispatcherTest {
  @TempDir java.nio.file.Path tmp;
  private TestPlane plane;
  private ToolDispatcher dispatcher;

  @BeforeEach
  void setUp() {
    plane = TestPlane.at(tmp.resolve("plane"));
    plane.write("README.md", "# plane\n");
    dispatcher = plane.dispatcher();
  }

  @AfterEach
  void tearDown() {
    plane.close();
  }

  /** A tool with a configured id whose behaviour a test supplies. */
  private static Tool tool(String id, java.util.function.BiFunction<ToolContext, JsonNode, ToolResult> body) {
    return new Tool() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public ToolResult run(ToolContext ctx, JsonNode a) {
        return body.apply(ctx, a);
      }
    };
  }

  private ToolDispatcher with(Tool... tools) {
    return new ToolDispatcher(plane.catalog, plane.ledgers, List.of(tools));
  }

  @Test
  void toolNotInTheAgentsConfig_isRefusedNamingTheAgentsTools() {
    ToolResult r = dispatcher.execute("RESIDENT", TestPlane.SESSION, "write_file", args("{\"path\":\"HOT/kernel/x.py\"}"),
        List.of("write_file", "read_file"));

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode());
    assertTrue(r.content().contains("write_file"), r.content());
    assertTrue(r.content().contains("RESIDENT"), r.content());
    assertTrue(r.content().contains("read_file, query_ledger"), r.content());
  }

  @Test
  void residentAskingForAnAdminTool_isRefusedEvenIfTheWorkOrderListsIt() {
    ToolResult r = dispatcher.execute("RESIDENT", TestPlane.SESSION, "gate_check", Json.object(), List.of("gate_check"));

    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode());
    assertTrue(r.content().contains("read_file, query_ledger"), r.content());
  }

  @Test
  void toolNotInTheWorkOrdersAllowedList_isRefusedNamingTheAllowedOnes() {
    ToolResult r = dispatcher.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"), List.of("list_packages"));

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode());
    assertTrue(r.content().contains("not allowed in this work order (allowed: list_packages)"), r.content());
  }

  @Test
  void nullAllowedList_allowsNothing() {
    ToolResult r = dispatcher.execute("ADMIN", TestPlane.SESSION, "list_packages", Json.object(), null);

    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode());
    assertTrue(r.content().contains("allowed: none"), r.content());
  }

  @Test
  void configuredToolWithoutAnImplementation_isToolUnknown() {
    ToolDispatcher onlyReadFile = with(new ReadFileTool());

    ToolResult r = onlyReadFile.execute("ADMIN", TestPlane.SESSION, "list_packages", Json.object(), ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.TOOL_UNKNOWN, r.errorCode());
    assertTrue(r.content().contains("list_packages") && r.content().contains("implemented: read_file"), r.content());
  }

  @Test
  void invalidArguments_reportEveryViolationAndWhatIsExpected() {
    AtomicReference<JsonNode> ran = new AtomicReference<>();
    ToolDispatcher d = with(tool("read_file", (c, a) -> {
      ran.set(a);
      return ToolResult.ok("ran");
    }));

    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\": 42, \"mode\": \"w\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, r.errorCode());
    assertTrue(r.content().contains("2 problems"), r.content());
    assertTrue(r.content().contains("/path"), "the type violation: " + r.content());
    assertTrue(r.content().contains("mode"), "the unknown property: " + r.content());
    assertTrue(r.content().contains("path (string, required)"), r.content());
    assertNull(ran.get(), "the tool did not run");
  }

  @Test
  void missingArguments_areValidatedAsAnEmptyObject() {
    ToolResult r = dispatcher.execute("ADMIN", TestPlane.SESSION, "read_file", null, ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, r.errorCode());
    assertTrue(r.content().contains("path"), r.content());
  }

  @Test
  void aToolThatThrows_becomesToolFailureWithoutAStackTrace() {
    ToolDispatcher d = with(tool("read_file", (c, a) -> {
      throw new IllegalStateException("disk on fire\n\tat some.Frame(Frame.java:1)");
    }));

    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.ERROR, r.status());
    assertEquals(ToolErrorCodes.TOOL_FAILURE, r.errorCode());
    assertTrue(r.content().startsWith("read_file failed with an internal error"), r.content());
    assertFalse(r.content().contains("IllegalStateException"), "no class names: " + r.content());
    assertFalse(r.content().contains("disk on fire"), "an unexpected exception's text stays in the log");
    assertFalse(r.content().contains("at some."), r.content());
  }

  /** Issue 20: what a tool says on purpose reaches the model; that is a ToolException's message. */
  @Test
  void aToolExceptionsMessage_isWhatTheModelReads() {
    ToolDispatcher d = with(tool("read_file", (c, a) -> {
      throw new ToolException("cannot read 'README.md': the file system refused it");
    }));

    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.TOOL_FAILURE, r.errorCode());
    assertEquals("read_file failed: cannot read 'README.md': the file system refused it", r.content());
  }

  /** Issue 20: a NUL in a model-chosen query_ledger filter reached PostgreSQL and its error reached the model. */
  @Test
  void aNulInAModelChosenFilter_isRefusedAsInvalidArguments_beforeTheToolRuns() {
    java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
    ToolDispatcher d = with(tool("query_ledger", (c, a) -> {
      ran.incrementAndGet();
      return ToolResult.ok("ran");
    }));

    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, "query_ledger",
        args("{\"tier\":\"hot\",\"event_type\":\"EXCHANGE\\u0000' OR 1=1\"}"), ALL_ADMIN_TOOLS);

    assertEquals(0, ran.get(), "the tool never saw the argument");
    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, r.errorCode());
    assertTrue(r.content().contains("event_type"), r.content());
    assertTrue(r.content().contains("U+0000"), r.content());
    assertFalse(r.content().contains("\u0000"), "the refusal itself carries no NUL");
  }

  @Test
  void controlCharactersAnywhereInTheArguments_areRefused_butTabNewlineAndReturnAreText() {
    ToolDispatcher d = with(tool("read_file", (c, a) -> ToolResult.ok("ran")));

    ToolResult escape = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"a\\u001b[31m.md\"}"),
        ALL_ADMIN_TOOLS);
    ToolResult key = d.execute("ADMIN", TestPlane.SESSION, "read_file",
        args("{\"path\":\"README.md\",\"x\\u0007\":1}"), ALL_ADMIN_TOOLS);
    ToolResult lone = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"a\\ud800.md\"}"),
        ALL_ADMIN_TOOLS);
    ToolResult plain = d.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"),
        ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, escape.errorCode(), escape.content());
    assertTrue(escape.content().contains("U+001B"), escape.content());
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, key.errorCode(), key.content());
    assertEquals(ToolErrorCodes.INVALID_ARGUMENTS, lone.errorCode(), lone.content());
    assertTrue(lone.content().contains("surrogate"), lone.content());
    assertEquals("ran", plain.content());
    assertEquals(java.util.Optional.empty(), ArgumentText.problem(args("{\"content\":\"a\\tb\\r\\nc\"}")));
  }

  /** Issue 20: "LedgerException: cannot read stream hot in the ledger database jdbc:postgresql://…" reached the model. */
  @Test
  void aDatabaseErrorInATool_reachesTheModelWithoutInternals() {
    ToolDispatcher d = with(tool("query_ledger", (c, a) -> {
      throw new cp.ledger.LedgerException("cannot read stream hot in the ledger database"
          + " jdbc:postgresql://db.internal:5432/cp: ERROR: invalid byte sequence for encoding \"UTF8\": 0x00");
    }));

    ToolResult r = d.execute("ADMIN", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"hot\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.TOOL_FAILURE, r.errorCode());
    for (String internal : List.of("jdbc", "postgresql", "db.internal", "LedgerException", "UTF8", "ERROR:")) {
      assertFalse(r.content().contains(internal), internal + " reached the model: " + r.content());
    }
    assertTrue(r.content().contains("ledger could not be read"), r.content());
  }

  /** A ledger database that is down is not the tool's failure: the activity waits and retries (ledger_unavailable). */
  @Test
  void anUnreachableLedgerDatabase_isNotAToolResult() {
    ToolDispatcher d = with(tool("query_ledger", (c, a) -> {
      throw new cp.ledger.LedgerUnreachableException("cannot read stream hot in the ledger database x: refused", null);
    }));

    org.junit.jupiter.api.Assertions.assertThrows(cp.ledger.LedgerUnreachableException.class,
        () -> d.execute("ADMIN", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"hot\"}"), ALL_ADMIN_TOOLS));
  }

  @Test
  void aToolThatReturnsNull_becomesToolFailure() {
    ToolResult r = with(tool("list_packages", (c, a) -> null))
        .execute("ADMIN", TestPlane.SESSION, "list_packages", Json.object(), ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.TOOL_FAILURE, r.errorCode());
  }

  @Test
  void aPathRefusalFromATool_isARefusedResultWithItsCode() {
    ToolResult r = dispatcher.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"../etc/passwd\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.REFUSED, r.status());
    assertEquals(PathRefusal.PARENT_SEGMENT.code(), r.errorCode());
  }

  @Test
  void unknownAgentClass_isRefusedNotThrown() {
    ToolResult r = dispatcher.execute("NOBODY", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolErrorCodes.AGENT_UNKNOWN, r.errorCode());
    assertTrue(r.content().contains("ADMIN, RESIDENT"), r.content());
  }

  @Test
  void schemaDefaults_reachTheTool() {
    AtomicReference<JsonNode> seen = new AtomicReference<>();
    ToolDispatcher d = with(tool("query_ledger", (c, a) -> {
      seen.set(a);
      return ToolResult.ok("x");
    }));

    d.execute("ADMIN", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"hot\"}"), ALL_ADMIN_TOOLS);
    assertEquals(10, seen.get().path("max_entries").asInt());
    d.execute("RESIDENT", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"ho2\"}"), List.of("query_ledger"));
    assertEquals(5, seen.get().path("max_entries").asInt(), "RESIDENT's schema default");
  }

  @Test
  void residentQueryLedgerDefault_returnsFiveEntries() {
    for (int i = 0; i < 7; i++) {
      plane.ledgers.ho2("RESIDENT").write(LedgerEntry.builder("WO_PLANNED").reason("wo " + i)
          .metadata(Json.object().put("session_id", TestPlane.SESSION)).build());
    }

    ToolResult r = dispatcher.execute("RESIDENT", TestPlane.SESSION, "query_ledger", args("{\"tier\":\"ho2\"}"),
        List.of("query_ledger"));

    assertTrue(r.ok(), r.content());
    assertEquals(5, r.content().lines().count(), r.content());
  }

  @Test
  void aToolErrorIsAResult_theModelCanTrySomethingElse() {
    ToolResult missing = dispatcher.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"HO1/nothing.txt\"}"),
        ALL_ADMIN_TOOLS);
    ToolResult next = dispatcher.execute("ADMIN", TestPlane.SESSION, "read_file", args("{\"path\":\"README.md\"}"), ALL_ADMIN_TOOLS);

    assertEquals(ToolResult.ERROR, missing.status());
    assertEquals(ToolErrorCodes.NOT_FOUND, missing.errorCode());
    assertTrue(next.ok());
    assertEquals("# plane\n", next.content());
  }

  @Test
  void multipleToolCalls_eachRunAndReturnTheirOwnResult_alsoConcurrently() throws Exception {
    List<JsonNode> calls = List.of(args("{\"path\":\"README.md\"}"), Json.object(), args("{\"gate\":\"all\"}"),
        args("{\"tier\":\"hot\"}"));
    List<String> tools = List.of("read_file", "list_packages", "gate_check", "query_ledger");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<ToolResult>> futures = new ArrayList<>();
      for (int round = 0; round < 5; round++) {
        for (int i = 0; i < tools.size(); i++) {
          int k = i;
          futures.add(pool.submit(() -> dispatcher.execute("ADMIN", TestPlane.SESSION, tools.get(k), calls.get(k), ALL_ADMIN_TOOLS)));
        }
      }
      for (int i = 0; i < futures.size(); i++) {
        ToolResult r = futures.get(i).get();
        assertTrue(r.ok(), tools.get(i % 4) + ": " + r.content());
        switch (tools.get(i % 4)) {
          case "read_file" -> assertEquals("# plane\n", r.content());
          case "list_packages" -> assertTrue(r.content().contains("contract PRC-CLASSIFY-001"), r.content());
          case "gate_check" -> assertTrue(r.content().startsWith("PASS G-PLANE-ROOT"), r.content());
          default -> assertTrue(r.content().startsWith("no entries"), r.content());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void definitions_areTheAgentsToolsTheWorkOrderAllowsAndTheWorkerImplements_inConfigOrder() {
    List<ToolDefinition> defs = dispatcher.definitions("ADMIN", List.of("read_file", "gate_check", "write_file"));

    assertEquals(List.of("gate_check", "read_file", "write_file"), defs.stream().map(ToolDefinition::name).toList());
    assertEquals(plane.catalog.agent("ADMIN").tool("read_file").orElseThrow().parameters(), defs.get(1).inputSchema());
    assertEquals(List.of("read_file"), with(new ReadFileTool()).definitions("ADMIN", ALL_ADMIN_TOOLS).stream()
        .map(ToolDefinition::name).toList());
    assertTrue(dispatcher.definitions("ADMIN", null).isEmpty());
  }

  @Test
  void twoImplementationsWithOneId_areRejectedAtConstruction() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> with(new ReadFileTool(), new ReadFileTool()));
    assertTrue(e.getMessage().contains("read_file"));
  }

  @Test
  void residentHasNoWriteTool_andAdminsPathPolicyRefusesKernelWrites() {
    assertFalse(plane.catalog.agent("RESIDENT").toolIds().stream().anyMatch(t -> t.contains("write")));
    ToolResult r = dispatcher.execute("RESIDENT", TestPlane.SESSION, "write_file",
        args("{\"path\":\"HO2/x.md\",\"content\":\"x\"}"), List.of("read_file", "query_ledger", "write_file"));
    assertEquals(ToolErrorCodes.TOOL_NOT_ALLOWED, r.errorCode());

    PathRefusedException e = org.junit.jupiter.api.Assertions.assertThrows(PathRefusedException.class,
        () -> plane.context("ADMIN").paths().resolveForWrite("HOT/kernel/x.py"));
    assertEquals(PathRefusal.FORBIDDEN, e.refusal());
  }
}
