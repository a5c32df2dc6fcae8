package cp.cli;

import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.activities.ApprovalActivitiesImpl;
import cp.ledger.Durability;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.model.ApprovalRequest;
import cp.model.ApprovalResult;
import cp.model.Json;
import cp.model.ToolUse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: {@code cpctl show} lists every approval of a session with its decision, from the HO1 ledger. */
class ApprovalHistoryTest {
  @TempDir Path home;

  @Test
  void show_listsEveryApprovalWithItsDecision_andTheUndecidedOnesAsPending() {
    String sid = CliHarness.chat(CliHarness.env(home));
    String hex = sid.substring(4);
    String wo = "WO-" + hex + "-0001-02";
    try (Ledgers ledgers = new Ledgers(new PlaneLayout(home), LedgerSettings.all(Durability.NONE))) {
      ApprovalActivitiesImpl records = new ApprovalActivitiesImpl(ledgers);
      ToolUse use = new ToolUse("tu-1", "write_file", Json.object().put("path", "HO2/a.md").put("content", "a\n"));
      records.request(new ApprovalRequest("APR-" + hex + "-0001-02-1-1", sid, 1, sid + "/turn-0001", wo, "ADMIN", use,
          1, 240, false, 1_700_000_000_000L));
      records.decided(new ApprovalResult("APR-" + hex + "-0001-02-1-1", sid, 1, "write_file", ApprovalResult.DENIED,
          false, "bob", "2023-11-14T22:14:00Z", "not now", null), wo);
      records.request(new ApprovalRequest("APR-" + hex + "-0001-02-2-1", sid, 1, sid + "/turn-0001", wo, "ADMIN", use,
          2, 240, false, 1_700_000_100_000L));
    }

    var text = run(CliHarness.env(home), "show", sid);
    assertEquals(Cpctl.OK, text.code(), text::describe);
    assertTrue(text.out().contains("approvals:"), text::describe);
    assertTrue(text.out().contains("APR-" + hex + "-0001-02-1-1  turn 1  write_file  denied by bob at"
        + " 2023-11-14T22:14:00Z (not now)"), text::describe);
    assertTrue(text.out().contains("APR-" + hex + "-0001-02-2-1  turn 1  write_file  PENDING"), text::describe);
    assertTrue(text.out().contains("HO2/a.md (2 bytes, 1 line)"), text::describe);

    var json = run(CliHarness.env(home), "show", sid, "--json");
    JsonNode approvals = Json.parse(json.out()).path("approvals");
    assertEquals(2, approvals.size(), json::describe);
    assertEquals("denied", approvals.get(0).path("decision").asText());
    assertEquals("bob", approvals.get(0).path("decided_by").asText());
    assertTrue(approvals.get(1).path("decision").isMissingNode(), "undecided: " + approvals.get(1));
  }
}
