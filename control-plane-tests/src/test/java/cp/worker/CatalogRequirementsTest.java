package cp.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.Catalog;
import cp.contracts.CatalogException;
import cp.contracts.CatalogFixture;
import cp.contracts.ResourceSource;
import cp.ledger.Ledgers;
import cp.tools.BuiltinTools;
import cp.tools.IntegrityGates;
import cp.tools.Tool;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 8: the catalog a plane loads must hold the contracts its workflows plan under
 * and name only tools its workers implement; every gap is reported at once, naming file and field.
 */
class CatalogRequirementsTest {
  @TempDir Path dir;
  @TempDir Path home;

  @Test
  void theShippedCatalog_meetsThePlanesRequirements() {
    Catalog c = Catalog.load(ResourceSource.classpath(), PlaneConfig.CATALOG_REQUIREMENTS);
    assertEquals(4, c.contracts().size());
  }

  @Test
  void theKnownToolIds_areExactlyTheBuiltinToolsAWorkerRegisters() {
    Catalog catalog = Catalog.loadDefault();
    try (Ledgers ledgers = Ledgers.open(home)) {
      List<String> registered = BuiltinTools.all(catalog, IntegrityGates.of(catalog, ResourceSource.classpath(), ledgers))
          .stream().map(Tool::id).toList();
      assertEquals(registered, BuiltinTools.IDS);
      assertEquals(BuiltinTools.IDS, PlaneConfig.CATALOG_REQUIREMENTS.toolIds());
    }
  }

  @Test
  void aMissingContractAndAnUnknownTool_areReportedTogether_namingFileAndField() {
    CatalogFixture.copyOfShipped(dir).delete("contracts/PRC-CLASSIFY-001.json").delete("prompts/PRM-CLASSIFY-001.json")
        .edit("agents/resident.json", a -> ((ArrayNode) a.get("tools")).insertObject(0).put("tool_id", "shell")
            .put("description", "Run a shell command.").putObject("parameters").put("type", "object"));

    CatalogException e = assertThrows(CatalogException.class,
        () -> Catalog.load(ResourceSource.directory(dir), PlaneConfig.CATALOG_REQUIREMENTS));

    assertEquals(List.of(
        "agents/resident.json: tools[0].tool_id: unknown tool 'shell' (known: read_file, query_ledger, list_packages, "
            + "gate_check, write_file)",
        "contracts/: contract_id: no contract PRC-CLASSIFY-001, which the turn workflow plans work orders under "
            + "(required: PRC-CLASSIFY-001, PRC-SYNTHESIZE-001, PRC-DEGRADED-001; found: PRC-DEGRADED-001, "
            + "PRC-EXECUTE-001, PRC-SYNTHESIZE-001)"), e.problems());
  }

  @Test
  void withoutRequirements_theSameFilesAreValidFiles() {
    CatalogFixture.copyOfShipped(dir).delete("contracts/PRC-CLASSIFY-001.json").delete("prompts/PRM-CLASSIFY-001.json");
    assertEquals(3, Catalog.load(ResourceSource.directory(dir)).contracts().size());
  }
}
