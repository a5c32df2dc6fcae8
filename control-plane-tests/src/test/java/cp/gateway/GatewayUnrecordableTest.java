package cp.gateway;

import static cp.gateway.GatewayHarness.reply;
import static cp.gateway.GatewayHarness.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.WriteFaults;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 8: the gateway never sends (nor pays for) a call whose EXCHANGE the HOT ledger
 * cannot record. It checks before the breaker and the provider, and says which ledger, what is
 * wrong and what to do, in a code Temporal does (full disk) or does not (broken chain) retry.
 */
class GatewayUnrecordableTest {
  @TempDir Path dir;
  private GatewayHarness h;

  @BeforeEach
  void start() {
    h = new GatewayHarness(dir);
  }

  @AfterEach
  void stop() {
    h.writeFaults.clear(h.ledger.path());
    h.ledger.close();
  }

  @Test
  void aBrokenChain_isRefusedBeforeTheProvider_notRetryable_namingTheLedgerAndTheRepair() throws Exception {
    h.provider.answers(reply("first"));
    h.route(request());
    Files.writeString(h.ledger.path(), "{\"garbage\":true}\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    GatewayException e = h.routeFailing(request());

    assertEquals(1, h.provider.calls(), "the second call was never sent");
    assertEquals(Gateway.LEDGER_UNWRITABLE, e.errorCode());
    assertFalse(e.retryable());
    assertNull(e.entryId(), "nothing could be recorded");
    assertTrue(e.getMessage().startsWith("HOT ledger HOT/ledger/governance.jsonl cannot be written: its hash chain is"
        + " broken at line 2"), e.getMessage());
    assertTrue(e.getMessage().contains("run 'cpctl ledger verify' and 'cpctl ledger repair --tier hot'"), e.getMessage());
    assertEquals(CircuitBreaker.State.CLOSED, h.breakerState(), "the provider is not to blame");

    h.ledger.repair();
    h.provider.answers(reply("after the repair"));
    assertEquals("after the repair", h.route(request()).text());
  }

  @Test
  void aFullDisk_isRefusedBeforeTheProvider_retryable_sayingDiskFull() {
    h.writeFaults.fail(h.ledger.path(), WriteFaults.DISK_FULL);

    GatewayException e = h.routeFailing(request());

    assertEquals(0, h.provider.calls());
    assertEquals(Gateway.LEDGER_FULL, e.errorCode());
    assertTrue(e.retryable(), "space can be freed");
    assertTrue(e.getMessage().contains("HOT ledger HOT/ledger/governance.jsonl cannot be written: disk full"),
        e.getMessage());

    h.writeFaults.clear(h.ledger.path());
    h.provider.answers(reply("space again"));
    assertEquals("space again", h.route(request()).text());
  }

  @Test
  void aFileThatRefusesWritesAfterTheCheck_failsAsUnwritable_notAsAProviderBug() {
    // The check passed, the provider answered, then the EXCHANGE write was refused (a race).
    h.provider.answers(reply("paid for")).duringEachCall(() -> h.writeFaults.fail(h.ledger.path(),
        WriteFaults.NOT_PERMITTED));

    GatewayException e = h.routeFailing(request());

    assertEquals(Gateway.LEDGER_UNWRITABLE, e.errorCode());
    assertFalse(e.retryable(), "a retry would pay again for a call that cannot be recorded");
    assertTrue(e.getMessage().contains("Operation not permitted"), e.getMessage());
  }
}
