package cp.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.contracts.InstalledArtifact;
import cp.model.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** list_packages reports every shipped artifact with kind, id, version, file and SHA-256. */
class ListPackagesToolTest {
  @TempDir Path tmp;

  @Test
  void listsEveryShippedArtifact_oneSortedLineEach() {
    Catalog catalog = Catalog.loadDefault();
    try (TestPlane plane = TestPlane.at(tmp.resolve("plane"))) {
      ToolResult r = new ListPackagesTool(catalog).run(plane.context("ADMIN"), Json.object());

      assertTrue(r.ok());
      List<String> lines = r.content().lines().toList();
      assertEquals(catalog.artifacts().size(), lines.size(), r.content());
      assertEquals(lines.stream().sorted(java.util.Comparator.comparing((String l) -> l.split(" ")[0])
          .thenComparing(l -> l.split(" ")[1])).toList(), lines, "sorted by kind, then id");
      for (InstalledArtifact a : catalog.artifacts()) {
        String expected = a.kind().wireName() + " " + a.id() + " " + a.version() + " " + a.file() + " " + a.sha256();
        assertTrue(lines.contains(expected), expected + " missing from\n" + r.content());
      }
      String classify = lines.stream().filter(l -> l.startsWith("contract PRC-CLASSIFY-001 ")).findFirst()
          .orElseThrow(() -> new AssertionError("PRC-CLASSIFY-001 missing from\n" + r.content()));
      assertTrue(classify.matches("contract PRC-CLASSIFY-001 \\S+ contracts/PRC-CLASSIFY-001\\.json [0-9a-f]{64}"),
          classify);
      assertTrue(r.content().contains("agent ADMIN 1.0.0 agents/admin.json "), r.content());
      assertTrue(r.content().contains("schema agent_config "), r.content());
    }
  }
}
