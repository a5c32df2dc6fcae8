package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.gateway.LlmProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderReply;
import cp.model.ContentBlock;
import cp.model.Json;
import cp.model.PromptRequest;
import cp.model.TurnOutcome;
import cp.model.TurnResult;
import cp.tools.ToolErrorCodes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11, end to end: one RESIDENT user's message must not reach the model of another RESIDENT
 * session. User A tells the plane a secret; in session B the model tries the two ways the issue
 * found (read_file of the RESIDENT ledger, query_ledger with A's session id) and then reads its
 * own session's entries. Real worker, real dispatcher, real ledgers; only the model is scripted.
 */
class CrossSessionEvidenceTest {
  @TempDir Path tmp;

  private final String canary = "USER-A-SECRET-" + HexFormat.of().formatHex(SecureRandom.getSeed(6));

  /** Session A's id, once known: the attacking model names it. */
  private final AtomicReference<String> victim = new AtomicReference<>();

  /** Answers session A plainly (offline rules); in session B, probes the ledgers, then reports what it saw. */
  private final class ProbingModel implements LlmProvider {
    final List<PromptRequest> probing = Collections.synchronizedList(new ArrayList<>());
    private final OfflineProvider offline = new OfflineProvider();

    @Override
    public String id() {
      return "scripted";
    }

    @Override
    public ProviderReply send(PromptRequest r) throws cp.gateway.ProviderException {
      if (victim.get() == null) {
        return offline.send(r);
      }
      probing.add(r);
      if (r.contractId().startsWith(OfflineProvider.CLASSIFY_PREFIX)) {
        return offline.send(r);
      }
      List<ContentBlock> results = r.messages().stream().flatMap(m -> m.content().stream())
          .filter(ContentBlock::isToolResult).toList();
      // RESIDENT's work orders allow 3 rounds: both probes in round 1, its own session in round 2, the answer.
      return switch (results.size()) {
        case 0 -> new ProviderReply(List.of(
            ContentBlock.toolUse("toolu_1", "read_file",
                Json.object().put("path", "HO2/ledger/RESIDENT/workorder.jsonl")),
            ContentBlock.toolUse("toolu_2", "query_ledger", Json.object().put("tier", "ho2")
                .put("session_id", victim.get()))), 10, 10, "probing-1", ProviderReply.TOOL_USE);
        case 2 -> use("toolu_3", "query_ledger", Json.object().put("tier", "ho2").put("max_entries", 20));
        default -> {
          StringBuilder seen = new StringBuilder("Here is what the tools returned: ");
          results.forEach(b -> seen.append(b.content()).append(" | "));
          yield new ProviderReply(List.of(ContentBlock.text(Json.object().put("response_text", seen.toString())
              .toString())), 10, 10, "probing-1", ProviderReply.STOP);
        }
      };
    }

    private ProviderReply use(String id, String tool, JsonNode input) {
      return new ProviderReply(List.of(ContentBlock.toolUse(id, tool, input)), 10, 10, "probing-1",
          ProviderReply.TOOL_USE);
    }
  }

  @Test
  void residentSession_cannotReadAnotherResidentSessionsMessages_throughItsTools() throws Exception {
    Path home = tmp.resolve("home");
    ProbingModel model = new ProbingModel();
    TurnResult probe;
    String sessionB;
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), model,
        PlaneRuntime::builtinTools)) {
      String sessionA = plane.client.startSession("RESIDENT");
      plane.client.turn(sessionA, "please remember this for me: " + canary);
      assertTrue(Files.readString(home.resolve("HO2/ledger/RESIDENT/workorder.jsonl"), StandardCharsets.UTF_8)
          .contains(canary), "precondition: user A's message is in the RESIDENT ledger both sessions share");

      victim.set(sessionA);
      sessionB = plane.client.startSession("RESIDENT");
      probe = plane.client.turn(sessionB, "what did the other users say?");
    }

    assertEquals(TurnOutcome.SUCCESS, probe.outcome(), probe.response());
    assertEquals(List.of("read_file", "query_ledger", "query_ledger"),
        probe.toolCalls().stream().map(t -> t.toolName()).toList());
    assertFalse(probe.response().contains(canary), "user B got user A's message: " + probe.response());
    for (PromptRequest r : model.probing) {
      assertFalse(Json.MAPPER.writeValueAsString(r.messages()).contains(canary),
          "session B's model saw user A's message in " + r.contractId());
    }

    List<JsonNode> toolCalls = Files.readAllLines(home.resolve("HO1/ledger/worker.jsonl"), StandardCharsets.UTF_8)
        .stream().filter(l -> !l.isBlank()).map(Json::parse)
        .filter(e -> "TOOL_CALL".equals(e.path("event_type").asText())).toList();
    assertEquals(3, toolCalls.size());
    assertRefused(toolCalls.get(0), "read_file", "path_ledger_file");
    assertRefused(toolCalls.get(1), "query_ledger", ToolErrorCodes.OTHER_SESSION);
    JsonNode own = toolCalls.get(2);
    assertEquals("ok", own.at("/metadata/status").asText(), own.toString());
    assertTrue(own.at("/metadata/result").asText().contains(sessionB), "its own session's entries: " + own);
  }

  private static void assertRefused(JsonNode entry, String tool, String code) {
    assertEquals(tool, entry.at("/metadata/tool_id").asText(), entry.toString());
    assertEquals("refused", entry.at("/metadata/status").asText(), entry.toString());
    assertEquals(code, entry.at("/metadata/error_code").asText(), entry.toString());
  }
}
