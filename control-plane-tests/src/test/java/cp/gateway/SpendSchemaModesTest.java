package cp.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.ledger.LedgerDatabase;
import cp.ledger.LedgerMigration;
import cp.ledger.LedgerStoreUnavailableException;
import cp.ledger.TestPostgres;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worker's tenant counters on PostgreSQL keep {@code CP_LEDGER_MIGRATE} as the ledger store
 * does. Before, they always migrated their schema: under {@code validate} or {@code off} a worker
 * created tables the operator had said it must not.
 */
class SpendSchemaModesTest {
  @Test
  void underValidate_aFreshDatabase_isRefusedNamingTheVariable_andNoTableIsCreated() {
    LedgerDatabase db = TestPostgres.freshDatabase().withMigration(LedgerMigration.VALIDATE);

    var e = assertThrows(LedgerStoreUnavailableException.class, () -> PostgresTenantCounters.open(db).close());

    assertTrue(e.getMessage().contains("tenant counters") && e.getMessage().contains(LedgerMigration.VARIABLE),
        e.getMessage());
    assertEquals(List.of(), TestPostgres.tables(db));
  }

  @Test
  void underValidate_anUpToDateSchema_opens() throws Exception {
    LedgerDatabase fresh = TestPostgres.freshDatabase();
    PostgresTenantCounters.open(fresh).close();

    try (TenantCounters c = PostgresTenantCounters.open(fresh.withMigration(LedgerMigration.VALIDATE))) {
      assertTrue(c.heldByTenant(java.time.Instant.now()).isEmpty());
    }
  }

  @Test
  void underOff_nothingIsCreated_theSchemaIsTrustedAsItIs() throws Exception {
    LedgerDatabase db = TestPostgres.freshDatabase().withMigration(LedgerMigration.OFF);

    PostgresTenantCounters.open(db).close();

    assertEquals(List.of(), TestPostgres.tables(db));
  }

}
