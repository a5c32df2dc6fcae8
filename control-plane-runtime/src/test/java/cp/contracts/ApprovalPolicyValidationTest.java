package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: an agent's approval policy per tool is validated at start-up like the rest of the catalog. */
class ApprovalPolicyValidationTest {
  @TempDir Path dir;
  private CatalogFixture fixture;

  @BeforeEach
  void setUp() {
    fixture = CatalogFixture.copyOfShipped(dir);
  }

  private void editWriteFile(Consumer<ObjectNode> change) {
    fixture.edit("agents/admin.json", a -> {
      for (JsonNode t : (ArrayNode) a.get("tools")) {
        if (t.path("tool_id").asText().equals("write_file")) {
          change.accept((ObjectNode) t);
        }
      }
    });
  }

  private List<String> problems() {
    CatalogException e = assertThrows(CatalogException.class, fixture::load);
    return e.problems();
  }

  @Test
  void shippedPolicy_adminsWriteFileNeedsApproval_readToolsDoNot_defaultsByWhetherTheToolWrites() {
    AgentConfig admin = fixture.load().agent("ADMIN");
    ToolSpec write = admin.tool("write_file").orElseThrow();
    assertTrue(write.approvalRequired(Set.of("write_file")));
    assertEquals(240, write.effectiveApprovalTimeoutSeconds());
    assertFalse(write.grantOnTimeout());
    assertFalse(admin.tool("read_file").orElseThrow().approvalRequired(Set.of("write_file")));
    ToolSpec unset = new ToolSpec("write_file", "w", null);
    assertTrue(unset.approvalRequired(Set.of("write_file")), "a writing tool defaults to required");
    assertFalse(new ToolSpec("read_file", "r", null).approvalRequired(Set.of("write_file")));
  }

  @Test
  void anApprovalTimeoutNotShorterThanTheTurnDeadline_isRefusedNamingBoth() {
    editWriteFile(t -> t.put("approval_timeout_seconds", 300));

    assertEquals(List.of("agents/admin.json: tools[4].approval_timeout_seconds: 300 s is not shorter than"
        + " budget.turn_timeout_seconds 300 s: the turn's deadline would cancel the turn before the approval could"
        + " time out; lower it or raise budget.turn_timeout_seconds"), problems());
  }

  @Test
  void unknownApprovalValues_areRefusedByTheSchema() {
    editWriteFile(t -> t.put("approval", "sometimes").put("approval_on_timeout", "ask-again"));

    List<String> p = problems();
    assertEquals(2, p.size(), p.toString());
    assertTrue(p.get(0).startsWith("agents/admin.json: tools[4].approval"), p.toString());
    assertTrue(p.stream().anyMatch(s -> s.contains("approval_on_timeout")), p.toString());
  }
}
