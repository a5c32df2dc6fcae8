package cp.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Ledger files read as plain JSON lines, the way an auditor would, without the ledger code. */
final class LedgerLines {
  static final String HOT = "HOT/ledger/governance.jsonl";
  static final String HO1 = "HO1/ledger/worker.jsonl";
  static final String HO2_ADMIN = "HO2/ledger/ADMIN/workorder.jsonl";

  private LedgerLines() {}

  /** Every line of {@code file} parsed; a missing file is empty. */
  static List<JsonNode> read(Path file) throws IOException {
    List<JsonNode> entries = new ArrayList<>();
    if (!Files.exists(file)) {
      return entries;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        entries.add(Json.parse(line));
      }
    }
    return entries;
  }

  static List<JsonNode> ofType(List<JsonNode> entries, String type) {
    return entries.stream().filter(e -> type.equals(e.path("event_type").asText())).toList();
  }

  /** No entry id and no idempotency key appears twice: nothing was written twice. */
  static void assertNoDuplicates(String ledger, List<JsonNode> entries) {
    Set<String> ids = new HashSet<>();
    Set<String> keys = new HashSet<>();
    for (JsonNode e : entries) {
      assertTrue(ids.add(e.path("entry_id").asText()), () -> ledger + ": duplicate entry " + e);
      String key = e.path("idempotency_key").asText("");
      assertTrue(key.isEmpty() || keys.add(key), () -> ledger + ": idempotency key written twice: " + key);
    }
  }
}
