package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Ledgers#readOnly} over JSONL files: reads what is complete, changes nothing, says what it skipped. */
class ReadOnlyLedgerTest {
  @TempDir Path home;

  /** A line cut short by a crash. */
  static final String TORN = "{\"entry_id\":\"LED-";

  private final List<String> warnings = new ArrayList<>();

  private Path hot() {
    return new PlaneLayout(home).ledgerPath(Tier.HOT, null);
  }

  private Ledgers readOnly() {
    return Ledgers.readOnly(new PlaneLayout(home), LedgerSettings.all(Durability.NONE), warnings::add);
  }

  private List<String> write(int n) {
    List<String> ids = new ArrayList<>();
    try (Ledger l = Ledger.open(hot(), LedgerOptions.of(Durability.NONE))) {
      for (int i = 0; i < n; i++) {
        ids.add(l.write(LedgerTest.entry("EVENT", "SES-0000000" + (i % 2), "WO-" + i)));
      }
    }
    return ids;
  }

  /** Every path under the plane root with its bytes (directories as such). */
  private Map<String, String> tree() throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(home)) {
      for (Path p : all.toList()) {
        out.put(home.relativize(p).toString(), Files.isDirectory(p) ? "<dir>"
            : new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
      }
    }
    return out;
  }

  @Test
  void aTornTail_isNotRead_notMoved_andNamedOnceWithItsRepair() throws Exception {
    List<String> ids = write(4);
    Files.writeString(hot(), TORN, StandardOpenOption.APPEND);
    Map<String, String> before = tree();
    try (Ledgers ledgers = readOnly()) {
      LedgerStream s = ledgers.existing(Tier.HOT, null).orElseThrow();
      assertEquals(ids, s.readAll().stream().map(LedgerEntry::entryId).toList(), "every complete line, in order");
      assertEquals(2, s.bySession("SES-00000001").size());
      assertTrue(s.byId(ids.get(3)).isPresent());
      assertTrue(s.verify().tornTail(), "verify reports the tail as 'ledger verify' does: " + s.verify());
      ledgers.hot().readAll();
      assertThrows(LedgerException.class, () -> s.write(LedgerTest.entry("EVENT", "SES-00000000", null)));
    }
    assertEquals(before, tree(), "nothing created, moved, truncated or rewritten");
    assertEquals(1, warnings.size(), warnings::toString);
    String w = warnings.get(0);
    assertTrue(w.startsWith("HOT/ledger/governance.jsonl ends in an incomplete line of " + TORN.length()
        + " bytes after line 4")
        && w.contains("'cpctl ledger repair --tier hot'") && w.contains(".torn-"), w);
  }

  @Test
  void aLedgerThatDoesNotExist_readsEmpty_andNothingIsCreated() throws Exception {
    try (Ledgers ledgers = readOnly()) {
      assertTrue(ledgers.existing(Tier.HO1, null).isEmpty());
      assertEquals(List.of(), ledgers.hot().readAll());
      assertEquals(List.of(), ledgers.ho2("ADMIN").bySession("SES-00000000"));
      assertTrue(ledgers.hot().verify().ok());
    }
    try (Stream<Path> all = Files.list(home)) {
      assertEquals(List.of(), all.toList(), "no directory or file made");
    }
    assertTrue(warnings.isEmpty(), warnings::toString);
  }

  /** A writer reading the same file afterwards still recovers the tail: read-only only leaves it for them. */
  @Test
  void afterARead_theNextWriterStillRecoversTheTail() throws Exception {
    write(2);
    Files.writeString(hot(), TORN, StandardOpenOption.APPEND);
    try (Ledgers ledgers = readOnly()) {
      assertEquals(2, ledgers.hot().readAll().size());
    }
    try (Ledger l = Ledger.open(hot(), LedgerOptions.of(Durability.NONE))) {
      assertTrue(l.verify().ok(), l.verify()::toString);
    }
    try (Stream<Path> files = Files.list(hot().getParent())) {
      assertTrue(files.anyMatch(f -> f.getFileName().toString().contains(".torn-")), "the writer moved it aside");
    }
    assertFalse(warnings.isEmpty());
  }

  /** Line numbers come from the one read, garbage lines counted, as 'ledger verify' numbers them. */
  @Test
  void lineOf_countsLinesThatAreNotEntries() throws Exception {
    List<String> ids = write(3);
    List<String> lines = new ArrayList<>(Files.readAllLines(hot(), StandardCharsets.UTF_8));
    lines.add(1, "not json");
    Files.write(hot(), lines, StandardCharsets.UTF_8);
    try (Ledgers ledgers = readOnly()) {
      LedgerStream s = ledgers.hot();
      assertEquals(2, s.verify().firstBadLine(), s.verify()::toString);
      assertEquals(List.of(1L, 3L, 4L), ids.stream().map(id -> s.lineOf(id).orElseThrow()).toList());
      assertTrue(s.lineOf("LED-0000000000000000").isEmpty());
    }
  }

  /** A ledger this JVM has open for writing is read through that instance (no second lock beside it), and stays open. */
  @Test
  void aLedgerOpenForWritingInThisJvm_isReadThroughItsInstance_andStaysOpenAfterwards() {
    try (Ledger writer = Ledger.open(hot(), LedgerOptions.of(Durability.NONE))) {
      String first = writer.write(LedgerTest.entry("EVENT", "SES-00000000", null));
      try (Ledgers ledgers = readOnly()) {
        assertEquals(List.of(first), ledgers.hot().readAll().stream().map(LedgerEntry::entryId).toList());
      }
      String second = writer.write(LedgerTest.entry("EVENT", "SES-00000000", null));
      assertEquals(List.of(first, second), writer.readAll().stream().map(LedgerEntry::entryId).toList());
    }
  }
}
