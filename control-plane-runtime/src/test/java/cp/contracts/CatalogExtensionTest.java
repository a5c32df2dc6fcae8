package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 22's changes to the catalog: checks of the default catalog, layered resources, tools from a registry. */
class CatalogExtensionTest {
  @TempDir Path dir;

  // Catalog.loadDefault() loaded with CatalogRequirements.NONE, skipping the contract and tool checks.
  @Test
  void theDefaultCatalog_isCheckedAgainstThePlanesContractsAndBuiltInTools() {
    assertSame(CatalogRequirements.SHIPPED, Catalog.loadDefault().requirements());
    assertEquals(BuiltinToolIds.ALL, Catalog.loadDefault().requirements().toolIds());
  }

  @Test
  void aLayeredSource_addsTheOverlaysFiles_andReplacesOnlyTheSameNames() throws Exception {
    CatalogFixture.copyOfShipped(dir).edit("agents/admin.json", a -> ((ObjectNode) a.get("budget"))
        .put("turn_limit", 2));
    try (var files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.endsWith("agents/admin.json")) {
          Files.delete(f);
        }
      }
    }

    Catalog c = Catalog.load(ResourceSource.layered(ResourceSource.classpath(), ResourceSource.directory(dir)),
        CatalogRequirements.SHIPPED);

    assertEquals(2, c.agent("ADMIN").budget().turnLimit());
    assertEquals(List.of("ADMIN", "RESIDENT"), c.agentClasses());
    assertEquals(4, c.contracts().size());
  }

  @Test
  void anAgentFile_mayNameAToolOfTheRegistry_withAHyphenOrAsAnMcpTool() {
    CatalogFixture.copyOfShipped(dir).edit("agents/resident.json", a -> {
      ArrayNode tools = (ArrayNode) a.get("tools");
      tools.addObject().put("tool_id", "get-weather").put("description", "Weather.")
          .putObject("parameters").put("type", "object");
      tools.addObject().put("tool_id", "everything/echo").put("description", "Echo.")
          .putObject("parameters").put("type", "object");
    });
    List<String> known = new ArrayList<>(BuiltinToolIds.ALL);
    known.add("get-weather");
    known.add("everything/echo");

    Catalog c = Catalog.load(ResourceSource.directory(dir), CatalogRequirements.SHIPPED.withTools(ToolNamespace.of(known)));
    assertEquals(true, c.agent("RESIDENT").toolIds().containsAll(List.of("get-weather", "everything/echo")));

    var e = assertThrows(CatalogException.class, () -> Catalog.load(ResourceSource.directory(dir),
        CatalogRequirements.SHIPPED));
    assertEquals(2, e.problems().size(), e.problems()::toString);
  }
}
