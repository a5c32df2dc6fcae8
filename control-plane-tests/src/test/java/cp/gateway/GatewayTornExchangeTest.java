package cp.gateway;

import static cp.gateway.GatewayHarness.IN;
import static cp.gateway.GatewayHarness.OUT;
import static cp.gateway.GatewayHarness.inActivity;
import static cp.gateway.GatewayHarness.reply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.faults.KillAt;
import cp.ledger.LedgerEntry;
import cp.model.PromptResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1 "a torn EXCHANGE line pays twice, unrecorded": the worker is killed while the EXCHANGE
 * of an answered (paid) call is half on disk. The retry asks the provider again (the answer is lost
 * with the line), but both billed calls are recorded and counted: the ledger's EXCHANGE tokens and
 * the tokens the call reports to its work order (and so to the session) equal what was billed.
 */
class GatewayTornExchangeTest {
  @TempDir Path dir;

  @Test
  void aTornExchange_theRetryCountsTheLostAttempt_billedEqualsRecordedEqualsReported() {
    GatewayHarness h = new GatewayHarness(dir, new KillAt("ledger-torn:EXCHANGE"));
    h.provider.answers(reply("first answer, lost with its line")).answers(reply("second answer"));
    assertThrows(KillAt.Killed.class, () -> h.route(inActivity("5", 1)), "killed half-way through the EXCHANGE");

    PromptResponse r = h.route(inActivity("5", 2));

    assertEquals(2, h.provider.calls(), "the answer was lost with the line: the provider is asked again");
    long billed = 2L * (IN + OUT);
    List<LedgerEntry> exchanges = h.exchanges();
    assertEquals(2, exchanges.size(), "the torn attempt is recorded beside the retry's: " + exchanges);
    long recorded = exchanges.stream().mapToLong(e -> (long) (e.metaNumber("input_tokens")
        + e.metaNumber("output_tokens"))).sum();
    assertEquals(billed, recorded, "every billed token is in the ledger");
    assertEquals(billed, r.inputTokens() + r.outputTokens(), "the call reports both attempts' tokens to its budget");
    assertEquals(exchanges.stream().mapToDouble(e -> e.metaNumber("cost")).sum(), r.cost(), 1e-12);
    assertEquals("TORN", exchanges.get(0).decision());
    assertEquals(exchanges.get(0).entryId(), exchanges.get(1).meta("torn_attempt").path("entry_id").asText());

    // A third attempt (the retry's own acknowledgement lost) replays the recorded answer with the same totals.
    PromptResponse replay = h.route(inActivity("5", 3));
    assertTrue(replay.replayed());
    assertEquals(r.inputTokens(), replay.inputTokens());
    assertEquals(r.outputTokens(), replay.outputTokens());
    assertEquals(2, h.provider.calls());
    h.verifyChainAndClose();
  }
}
