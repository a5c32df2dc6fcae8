package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.Catalog;
import cp.contracts.CatalogRequirements;
import cp.contracts.ResourceSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link JudgeResources}: the eval worker's resources are the operator's plus the judge's contract and prompt. */
class JudgeResourcesTest {
  @TempDir
  Path dir;

  @Test
  void withoutOwnResources_theJudgesContractAndPromptLoadOverTheBuiltInCatalog() {
    Path target = dir.resolve("resources");
    JudgeResources.prepare(Optional.empty(), target);
    Catalog c = Catalog.load(ResourceSource.layered(ResourceSource.classpath(), ResourceSource.directory(target)),
        CatalogRequirements.SHIPPED);
    assertTrue(c.findContract("PRC-JUDGE-001").isPresent());
    assertEquals("PRM-JUDGE-001", c.findContract("PRC-JUDGE-001").get().promptPackId());
    assertFalse(Catalog.loadDefault().findContract("PRC-JUDGE-001").isPresent(), "production's catalog has no judge");
  }

  @Test
  void theOperatorsFilesAreCopied_theirOwnJudgePromptWins_andAnEarlierCopyIsReplaced() throws Exception {
    Path own = Files.createDirectories(dir.resolve("own").resolve("prompts"));
    Files.writeString(own.resolve("PRM-JUDGE-001.json"), "{\"mine\": true}");
    Files.writeString(own.resolve("other.json"), "{}");
    Path target = dir.resolve("resources");
    Files.createDirectories(target.resolve("prompts"));
    Files.writeString(target.resolve("prompts").resolve("stale.json"), "{}");

    JudgeResources.prepare(Optional.of(dir.resolve("own")), target);

    assertEquals("{\"mine\": true}", Files.readString(target.resolve("prompts/PRM-JUDGE-001.json")));
    assertTrue(Files.exists(target.resolve("prompts/other.json")));
    assertTrue(Files.readString(target.resolve("contracts/PRC-JUDGE-001.json")).contains("\"pass\""));
    assertFalse(Files.exists(target.resolve("prompts/stale.json")), "the run's copy is made afresh");
  }
}
