package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heads a plane's ledgers record of each other, and the plane-wide check that reads them. */
class HeadCheckpointTest {
  @TempDir Path root;

  private Ledgers ledgers() {
    return new Ledgers(new PlaneLayout(root), LedgerSettings.all(Durability.NONE));
  }

  private static LedgerEntry event(String type) {
    return LedgerEntry.builder(type).metadata(Json.object().put("session_id", "SES-00000001")).build();
  }

  @Test
  void boundaryEntries_recordTheOtherLedgersHeads_otherEntriesDoNot() {
    try (Ledgers l = ledgers()) {
      l.ho1().write(event("WO_EXECUTING"));
      l.ho1().write(event("WO_COMPLETED"));
      l.ho2("ADMIN").write(event("WO_PLANNED"));
      String start = l.hot().write(event("SESSION_START"));
      String exchange = l.hot().write(event("EXCHANGE"));
      JsonNode heads = l.hot().byId(start).orElseThrow().meta(HeadCheckpoint.FIELD);
      assertEquals(2, heads.get("HO1/ledger/worker.jsonl").get("entries").asLong());
      assertEquals(l.ho1().lastN(1).get(0).hash(), heads.get("HO1/ledger/worker.jsonl").get("hash").asText());
      assertEquals(1, heads.get("HO2/ledger/ADMIN/workorder.jsonl").get("entries").asLong());
      assertTrue(!heads.has("HOT/ledger/governance.jsonl"), "a ledger does not record its own head");
      assertNull(l.hot().byId(exchange).orElseThrow().meta(HeadCheckpoint.FIELD));
      String end = l.ho2("ADMIN").write(event("WO_CHAIN_COMPLETE"));
      assertEquals(2, l.ho2("ADMIN").byId(end).orElseThrow().meta(HeadCheckpoint.FIELD)
          .get("HOT/ledger/governance.jsonl").get("entries").asLong());
      assertTrue(HeadCheckpoint.crossCheck(l.layout()).isEmpty());
    }
  }

  @Test
  void aLedgerNotOpenInThisProcess_isRecordedFromItsHeadSidecar() {
    try (Ledgers l = ledgers()) {
      l.ho1().write(event("WO_EXECUTING"));
    }
    try (Ledgers l = ledgers()) {
      String start = l.hot().write(event("SESSION_START"));
      assertEquals(1, l.hot().byId(start).orElseThrow().meta(HeadCheckpoint.FIELD).get("HO1/ledger/worker.jsonl")
          .get("entries").asLong());
    }
  }

  @Test
  void aLedgerOutsideAPlane_recordsNothing() {
    try (Ledger l = Ledger.open(root.resolve("somewhere/else.jsonl"), LedgerOptions.of(Durability.NONE))) {
      String id = l.write(event("SESSION_START"));
      assertNull(l.byId(id).orElseThrow().meta(HeadCheckpoint.FIELD));
    }
  }

  @Test
  void crossCheck_namesMissingShorterAndRewrittenLedgers() throws Exception {
    try (Ledgers l = ledgers()) {
      for (int i = 0; i < 3; i++) {
        l.ho1().write(event("WO_EXECUTING"));
      }
      l.hot().write(event("SESSION_START"));
    }
    Path ho1 = root.resolve("HO1/ledger/worker.jsonl");
    List<String> lines = Files.readAllLines(ho1);
    Files.write(ho1, lines.subList(0, 2));
    List<HeadCheckpoint.Finding> f = HeadCheckpoint.crossCheck(new PlaneLayout(root));
    assertEquals(1, f.size());
    assertTrue(f.get(0).message().startsWith("HO1/ledger/worker.jsonl is shorter than its head recorded in HOT at LED-"),
        f.get(0).message());
    assertEquals(3, f.get(0).firstBadLine());

    // Line 3 re-hashed after an edit (the chain itself is checked by Ledger.verify; this is the recorded head).
    String hash = Json.parse(lines.get(2)).get("hash").asText();
    Files.write(ho1, List.of(lines.get(0), lines.get(1), lines.get(2).replace(hash, "f".repeat(64))));
    f = HeadCheckpoint.crossCheck(new PlaneLayout(root));
    assertEquals(1, f.size(), f.toString());
    assertTrue(f.get(0).message().contains("line 3 does not match its head recorded in HOT"), f.get(0).message());

    Files.delete(ho1);
    f = HeadCheckpoint.crossCheck(new PlaneLayout(root));
    assertTrue(f.get(0).message().startsWith("HO1/ledger/worker.jsonl is missing: its head recorded in HOT at LED-"),
        f.get(0).message());
    assertEquals(Tier.HO1, f.get(0).stream().tier());
  }
}
