package cp.contracts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A temporary copy of the shipped catalog files that a test can break (or change) one file at a
 * time; also what a test points {@code CP_RESOURCES_DIR} at.
 */
public final class CatalogFixture {
  static final List<String> DIRECTORIES = List.of("contracts", "prompts", "agents", "attention");

  private final Path root;

  private CatalogFixture(Path root) {
    this.root = root;
  }

  /** Copies every shipped catalog file (from the classpath) under {@code root}. */
  public static CatalogFixture copyOfShipped(Path root) {
    ResourceSource shipped = ResourceSource.classpath();
    for (String dir : DIRECTORIES) {
      for (ResourceFile f : shipped.list(dir)) {
        write(root.resolve(f.name()), f.bytes());
      }
    }
    return new CatalogFixture(root);
  }

  public Path root() {
    return root;
  }

  ResourceSource source() {
    return ResourceSource.directory(root);
  }

  Catalog load() {
    return Catalog.load(source());
  }

  /** Parses {@code name}, lets {@code change} edit the tree, writes it back pretty-printed. */
  public CatalogFixture edit(String name, Consumer<ObjectNode> change) {
    ObjectNode tree = (ObjectNode) read(name);
    change.accept(tree);
    return writeText(name, Json.pretty(tree));
  }

  /** Copies {@code from} to {@code to} after applying {@code change} to the copy. */
  CatalogFixture copy(String from, String to, Consumer<ObjectNode> change) {
    ObjectNode tree = (ObjectNode) read(from);
    change.accept(tree);
    return writeText(to, Json.pretty(tree));
  }

  public CatalogFixture writeText(String name, String text) {
    write(root.resolve(name), text.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  public CatalogFixture delete(String name) {
    try {
      Files.delete(root.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  JsonNode read(String name) {
    try {
      return Json.parse(Files.readString(root.resolve(name)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, byte[] bytes) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
