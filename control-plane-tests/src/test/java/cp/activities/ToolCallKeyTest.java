package cp.activities;

import static cp.activities.ScriptedProvider.use;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.ledger.LedgerEntry;
import cp.ledger.LedgerUnreachableException;
import cp.model.WoState;
import cp.tools.ToolExecutor;
import cp.tools.ToolInvocation;
import cp.tools.ToolResult;
import cp.workflows.WorkOrderRunner.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The idempotency key a tool gets (issue 22) is the same on every attempt of the same call: a
 * tool that did its work and then lost its attempt before the TOOL_CALL was recorded (the case of
 * a crash between a tool's effect and its record) runs again on the retry with the key it saw the
 * first time, so it can tell the second run is the first call again. Every other call gets another key.
 */
class ToolCallKeyTest {
  static Ho1Harness h;

  @TempDir Path home;

  /** Runs every call, remembering its key; the first call's attempt is lost after the tool ran. */
  static final class KeyedTools implements ToolExecutor {
    final List<String> keys = new CopyOnWriteArrayList<>();

    @Override
    public ToolResult execute(String agentClass, String sessionId, String toolId, JsonNode arguments,
        List<String> allowedTools) {
      throw new AssertionError("HO1 calls a tool with its invocation, key included");
    }

    @Override
    public ToolResult execute(ToolInvocation call) {
      keys.add(call.idempotencyKey());
      if (keys.size() == 1) {
        throw new LedgerUnreachableException("the ledger went away after the tool ran", null);
      }
      return ToolResult.ok("done for " + call.idempotencyKey());
    }
  }

  @BeforeAll
  static void startService() {
    h = Ho1Harness.start();
  }

  @AfterAll
  static void stopService() {
    h.close();
  }

  @AfterEach
  void closePlane() {
    h.closePlane();
  }

  @Test
  void aToolCallRunAgainAfterALostAttempt_getsTheSameKey_andTheNextCallAnother() {
    ScriptedProvider provider = new ScriptedProvider()
        .thenTools(100, 10, use("toolu_01", "list_packages", "{}"), use("toolu_02", "read_file", "{}"))
        .thenText("{\"response_text\":\"done\"}", 100, 10);
    KeyedTools tools = new KeyedTools();
    h.plane(home, provider, tools);

    Outcome out = h.run(WorkOrders.synthesize("what packages are installed?"));

    assertEquals(WoState.COMPLETED, out.workOrder().state());
    assertEquals(3, tools.keys.size(), "the first call ran twice (its first attempt was lost), the second once");
    assertEquals(tools.keys.get(0), tools.keys.get(1), "the same key on the retry of the same call");
    assertTrue(tools.keys.get(0).endsWith("/" + out.workOrder().woId() + "/round-1/call-1"), tools.keys.get(0));
    assertTrue(tools.keys.get(2).endsWith("/" + out.workOrder().woId() + "/round-1/call-2"), tools.keys.get(2));
    List<LedgerEntry> calls = h.ho1("TOOL_CALL");
    assertEquals(2, calls.size(), "one record per call");
    assertEquals(2, calls.get(0).meta("attempt").asInt(), "the first call was recorded by its second attempt");
    assertEquals("done for " + tools.keys.get(0), calls.get(0).metaText("result"));
  }
}
