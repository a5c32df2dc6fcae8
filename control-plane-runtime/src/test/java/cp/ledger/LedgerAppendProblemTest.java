package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Issue 11 item 8: a ledger says, without writing, whether it can take an append, and why not. */
class LedgerAppendProblemTest {
  @TempDir Path home;
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(Ledger.class);
  private final WriteFaults writeFaults = new WriteFaults();
  private Ledger ledger;

  @BeforeEach
  void open() {
    log.start();
    logger.addAppender(log);
    ledger = Ledger.open(new PlaneLayout(home).ledgerPath(Tier.HOT, null), LedgerOptions.of(Durability.FSYNC_EACH)
        .withHooks(LedgerHooks.NONE.withWrites(writeFaults)));
  }

  @AfterEach
  void close() {
    logger.detachAppender(log);
    writeFaults.clear(ledger.path());
    ledger.close();
  }

  private static LedgerEntry entry(String key) {
    return LedgerEntry.builder("EXCHANGE").submissionId("S").metadata(Json.object().put("session_id", "S"))
        .idempotencyKey(key).build();
  }

  private long errorLines() {
    return log.list.stream().filter(e -> e.getLevel() == Level.ERROR).count();
  }

  @Test
  void aLineAppendedByAnotherWriter_isSeenBeforeAnyWrite_refusedWithItsProblem_andLoggedOnce() throws Exception {
    ledger.write(entry("a"));
    assertEquals(Optional.empty(), ledger.appendProblem());
    Files.writeString(ledger.path(), "not json\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    LedgerProblem p = ledger.appendProblem().orElseThrow();
    assertEquals(LedgerProblem.Kind.CORRUPT, p.kind());
    assertEquals("HOT ledger HOT/ledger/governance.jsonl cannot be written: its hash chain is broken at line 2 (not"
        + " valid JSON); run 'cpctl ledger verify' and 'cpctl ledger repair --tier hot'", p.message());
    LedgerCorruptException refused = assertThrows(LedgerCorruptException.class, () -> ledger.write(entry("b")));
    assertEquals(Optional.of(p), LedgerProblem.of(refused), "the refusal carries the same problem");
    ledger.appendProblem();
    assertThrows(LedgerCorruptException.class, () -> ledger.write(entry("c")));
    assertEquals(1, errorLines(), "one line for the operator, not one per attempt");

    ledger.repair();
    assertEquals(Optional.empty(), ledger.appendProblem());
    ledger.write(entry("d"));
    assertTrue(log.list.stream().anyMatch(e -> e.getFormattedMessage().contains("takes appends again")));
  }

  @Test
  void aFullDisk_isAProblemUntilSpaceIsFreed_andTheFailedWriteSaysDiskFull() {
    writeFaults.fail(ledger.path(), WriteFaults.DISK_FULL);
    assertEquals(LedgerProblem.Kind.FULL, ledger.appendProblem().orElseThrow().kind());
    LedgerUnwritableException e = assertThrows(LedgerUnwritableException.class, () -> ledger.write(entry("a")));
    assertTrue(e.getMessage().contains("disk full (No space left on device)"), e.getMessage());
    assertTrue(e.problem().transientProblem());
    assertEquals(0, ledger.size(), "nothing half-written");
    assertEquals(1, errorLines());
    writeFaults.clear(ledger.path());
    assertEquals(Optional.empty(), ledger.appendProblem());
    ledger.write(entry("a"));
    assertTrue(ledger.verify().ok());
  }

  @Test
  void aFileThatRefusesWrites_isDenied_notTransient() {
    writeFaults.fail(ledger.path(), WriteFaults.NOT_PERMITTED);
    LedgerProblem p = ledger.appendProblem().orElseThrow();
    assertEquals(LedgerProblem.Kind.DENIED, p.kind());
    assertEquals(LedgerProblem.UNWRITABLE, p.failureType());
    assertTrue(p.message().contains("Operation not permitted") && p.message().contains("lsattr"), p.message());
  }

  @Test
  void theRepairCommandNamesTheTierAndAgentClass() {
    Path ho2 = new PlaneLayout(home).ledgerPath(Tier.HO2, "ADMIN");
    LedgerProblem p = LedgerProblem.corrupt(ho2, VerifyResult.bad(3, 4, "hash mismatch"));
    assertEquals("HO2 ledger HO2/ledger/ADMIN/workorder.jsonl cannot be written: its hash chain is broken at line 4"
        + " (hash mismatch); run 'cpctl ledger verify' and 'cpctl ledger repair --tier ho2 --agent-class ADMIN'",
        p.message());
  }

  // Review of issue 11: a keyed ledger opened without its key (or with another) is not a broken chain,
  // and 'cpctl ledger repair' refuses it: the problem must say to set the key, not to repair.
  @Test
  void aKeyProblem_saysToSetTheKey_notToRepairABrokenChain() {
    Path hot = new PlaneLayout(home).ledgerPath(Tier.HOT, null);
    LedgerProblem p = LedgerProblem.corrupt(hot, VerifyResult.of(VerifyResult.Kind.NEEDS_KEY, 0, 1,
        "keyed chain: set CP_LEDGER_HMAC_KEY to verify"));
    assertEquals(LedgerProblem.Kind.KEY, p.kind());
    assertEquals(LedgerProblem.UNWRITABLE, p.failureType());
    assertTrue(p.message().contains("CP_LEDGER_HMAC_KEY"), p.message());
    assertFalse(p.message().contains("repair"), p.message());
    assertFalse(p.message().contains("broken"), p.message());
  }
}
