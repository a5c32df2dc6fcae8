package cp.worker;

import cp.agents.DefinitionSource;
import cp.agents.PlaneAgents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.ArtifactKind;
import cp.contracts.Catalog;
import cp.contracts.InstalledArtifact;
import cp.contracts.ResourceSource;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.tools.GateResult;
import cp.tools.IntegrityGates;
import cp.tools.ListPackagesTool;
import cp.tools.ToolContext;
import cp.tools.mcp.McpSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agent definitions are installed artifacts: list_packages shows each with the SHA-256 of its
 * file, and the G-ARTIFACTS gate re-reads the file and names one changed since the worker started.
 * A definition registered in code is listed as such and has no file to re-read.
 */
class DefinitionArtifactsTest {
  @TempDir Path tmp;

  @Test
  void aDefinitionFileIsListed_andAChangeToItFailsGArtifacts_namingIt() throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Path file = agents.resolve("weather.yaml");
    Files.writeString(file, "agent_class: WEATHER\ninstructions: You tell the weather.\ntools: [read_file]\n");
    PlaneAgents.Settings s = new PlaneAgents.Settings(ResourceSource.classpath(), Optional.of(agents), null,
        Map.of("PATH", System.getenv("PATH")), McpSettings.DEFAULTS, List.of(),
        List.of(DefinitionSource.ofText("news (registered in code)",
            "agent_class: NEWS\ninstructions: You tell the news.\n")));
    try (PlaneAgents plane = PlaneAgents.open(s);
        Ledgers ledgers = new Ledgers(new PlaneLayout(Files.createDirectories(tmp.resolve("home"))),
            cp.ledger.LedgerSettings.defaults())) {
      Catalog catalog = plane.catalog();
      List<InstalledArtifact> defs = catalog.artifacts().stream()
          .filter(a -> a.kind() == ArtifactKind.AGENT_DEFINITION).toList();
      assertEquals(List.of("WEATHER", "NEWS"), defs.stream().map(InstalledArtifact::id).toList());
      assertEquals(file.toString(), defs.get(0).file());
      assertEquals("registered in code: news (registered in code)", defs.get(1).file());
      String listed = new ListPackagesTool(catalog).run(ToolContext.of(catalog.agent("ADMIN"), ledgers, null),
          cp.model.Json.object()).content();
      assertTrue(listed.contains("agent_definition WEATHER 1.0.0 " + file + " " + defs.get(0).sha256()), listed);
      IntegrityGates gates = IntegrityGates.of(catalog, ResourceSource.classpath(), ledgers);
      GateResult before = gates.run(IntegrityGates.ARTIFACTS);
      assertTrue(before.passed(), before.detail());
      assertTrue(before.detail().contains("1 agent definition(s) registered in code"), before.detail());

      Files.writeString(file, "# edited\n", java.nio.file.StandardOpenOption.APPEND);

      GateResult after = gates.run(IntegrityGates.ARTIFACTS);
      assertFalse(after.passed());
      assertTrue(after.detail().startsWith("1 of " + catalog.artifacts().size() + " artifacts differ from what was"
          + " loaded: " + file + " changed since load"), after.detail());
    }
  }
}
