package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.faults.FaultHook;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 21: a ledger store reaches its collaborators (the append metric, the crash-test fault
 * points, the write check) only through what it was given ({@link LedgerHooks}), never through
 * process-wide state, and an append returns what its caller needs (the id and the chain hash).
 */
class LedgerHooksTest {
  @TempDir Path dir;
  private StoreFixture fixture;
  private final List<String> observed = new CopyOnWriteArrayList<>();
  private final List<String> points = new CopyOnWriteArrayList<>();

  static Stream<String> stores() {
    return Stream.of("jsonl", "postgresql");
  }

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private LedgerStore open(String kind, LedgerHooks hooks) {
    fixture = kind.equals("jsonl") ? new StoreFixture.Jsonl(dir) : new StoreFixture.Postgres();
    return fixture.openStore(LedgerSettings.all(Durability.FSYNC_EACH).withHooks(hooks));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void appends_reachTheHooksTheStoreWasGiven(String kind) {
    LedgerHooks hooks = LedgerHooks.NONE.withObserver((tier, store, nanos) -> observed.add(tier + "/" + store
        + (nanos > 0 ? "" : " no time"))).withFaults(new FaultHook() {
          @Override
          public void at(String point) {
            points.add(point);
          }
        });
    LedgerStore store = open(kind, hooks);
    try {
      LedgerStream hot = store.open(new StreamId(Tier.HOT, null));
      LedgerStream.Appended a = hot.append(LedgerTest.entry("EXCHANGE", "SES-00000001", "WO-1").toBuilder()
          .idempotencyKey("k1").build());
      String label = kind.equals("jsonl") ? "file" : "postgresql";
      assertEquals(List.of("hot/" + label), observed);
      assertEquals(List.of("ledger-written:EXCHANGE"), points);

      assertTrue(a.written());
      assertEquals(hot.byId(a.entryId()).orElseThrow().hash(), a.hash(), "append returns the entry's chain hash");
      assertEquals(a.hash(), hot.hashOf(a.entryId()).orElseThrow());
      LedgerStream.Appended again = hot.append(LedgerTest.entry("EXCHANGE", "SES-00000001", "WO-1").toBuilder()
          .idempotencyKey("k1").build());
      assertEquals(a.entryId(), again.entryId());
      assertFalse(again.written());
      assertNull(again.hash());
    } finally {
      store.close();
    }
  }
}
