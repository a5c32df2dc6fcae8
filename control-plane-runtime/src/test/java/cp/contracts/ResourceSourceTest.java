package cp.contracts;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSourceTest {

  @Test
  void catalogLoadsFromAJar_listingItsDirectories(@TempDir Path tmp) throws Exception {
    CatalogFixture fixture = CatalogFixture.copyOfShipped(tmp.resolve("content"));
    Path jar = zip(fixture.root(), tmp.resolve("dir with space/catalog.jar"));

    // No parent loader: the jar must be the only place the files can come from.
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      ResourceSource source = ResourceSource.classpath(loader);
      assertTrue(loader.getResource("contracts").toString().startsWith("jar:"));

      Catalog catalog = Catalog.load(source);

      assertEquals(4, catalog.contracts().size());
      assertEquals(List.of("ADMIN", "RESIDENT"), catalog.agentClasses());
      InstalledArtifact classify = catalog.artifacts().get(0);
      assertEquals("contracts/PRC-CLASSIFY-001.json", classify.file());
      assertEquals(Json.sha256(Files.readAllBytes(fixture.root().resolve(classify.file()))), classify.sha256());
      assertEquals(fixture.read("agents/admin.json").get("system_prompt").asText(), catalog.agent("ADMIN").systemPrompt());
    }
  }

  @Test
  void brokenFileInsideAJar_isReportedByItsRelativeName(@TempDir Path tmp) throws Exception {
    CatalogFixture fixture = CatalogFixture.copyOfShipped(tmp.resolve("content"))
        .edit("agents/resident.json", a -> a.put("agent_class", "resident"));
    Path jar = zip(fixture.root(), tmp.resolve("catalog.jar"));

    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      CatalogException e = assertThrows(CatalogException.class, () -> Catalog.load(ResourceSource.classpath(loader)));

      assertTrue(e.getMessage().startsWith("catalog (classpath) refused: "), e.getMessage());
      assertTrue(e.problems().stream().anyMatch(p -> p.startsWith("agents/resident.json: agent_class: must be upper-case")),
          e.getMessage());
    }
  }

  @Test
  void classpathDirectoryListing_readsBuildOutputDirectories() {
    List<ResourceFile> contracts = ResourceSource.classpath().list("contracts/");

    assertEquals(List.of("contracts/PRC-CLASSIFY-001.json", "contracts/PRC-DEGRADED-001.json",
        "contracts/PRC-EXECUTE-001.json", "contracts/PRC-SYNTHESIZE-001.json"),
        contracts.stream().map(ResourceFile::name).toList());
    assertEquals(List.of(), ResourceSource.classpath().list("no-such-directory"));
  }

  @Test
  void directorySource_listsSortedFilesAndReadsByName(@TempDir Path root) throws IOException {
    Files.createDirectories(root.resolve("prompts/nested"));
    Files.writeString(root.resolve("prompts/b.json"), "{}");
    Files.writeString(root.resolve("prompts/a.json"), "{\"x\": 1}");
    ResourceSource source = ResourceSource.directory(root);

    List<ResourceFile> files = source.list("prompts");

    assertEquals(List.of("prompts/a.json", "prompts/b.json"), files.stream().map(ResourceFile::name).toList());
    ResourceFile a = source.read("prompts/a.json").orElseThrow();
    assertArrayEquals("{\"x\": 1}".getBytes(StandardCharsets.UTF_8), a.bytes());
    assertEquals(Json.sha256("{\"x\": 1}"), a.sha256());
    assertEquals("a.json", a.fileName());
    assertTrue(source.read("prompts/missing.json").isEmpty());
    assertEquals(List.of(), source.list("agents"));
  }

  @Test
  void directorySource_refusesNamesThatLeaveTheRoot(@TempDir Path root) {
    ResourceSource source = ResourceSource.directory(root.resolve("catalog"));

    assertThrows(IllegalArgumentException.class, () -> source.read("../secret.json"));
    assertThrows(IllegalArgumentException.class, () -> source.list("/etc"));
  }

  @Test
  void resourceFile_isImmutable() {
    byte[] bytes = "abc".getBytes(StandardCharsets.UTF_8);
    ResourceFile f = new ResourceFile("x/y.json", bytes);

    bytes[0] = 'z';
    f.bytes()[1] = 'z';

    assertEquals("abc", f.text());
    assertEquals(Json.sha256("abc"), f.sha256());
  }

  /** A jar as the Maven plugins write one: directory entries first, then files. */
  private static Path zip(Path content, Path jar) throws IOException {
    Files.createDirectories(jar.getParent());
    try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out);
        Stream<Path> walk = Files.walk(content)) {
      for (Path p : walk.sorted().toList()) {
        if (p.equals(content)) {
          continue;
        }
        String name = content.relativize(p).toString().replace('\\', '/');
        if (Files.isDirectory(p)) {
          zip.putNextEntry(new ZipEntry(name + "/"));
        } else {
          zip.putNextEntry(new ZipEntry(name));
          zip.write(Files.readAllBytes(p));
        }
        zip.closeEntry();
      }
    }
    return jar;
  }
}
