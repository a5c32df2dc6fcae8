package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import cp.contracts.Catalog;
import cp.contracts.ResourceSource;
import cp.ledger.Durability;
import cp.ledger.LedgerSettings;
import cp.ledger.Ledgers;
import cp.ledger.PlaneLayout;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A plane root in a test's temporary directory, with its ledgers, the shipped catalog and tool wiring. */
final class TestPlane implements AutoCloseable {
  /** Every tool ADMIN has, as a work order that allows them all would list them. */
  static final List<String> ALL_ADMIN_TOOLS = List.of("gate_check", "read_file", "query_ledger", "list_packages");
  /** The session test calls belong to unless a test names another. */
  static final String SESSION = "SES-0000a11e";

  final Path root;
  final Catalog catalog = Catalog.loadDefault();
  final Ledgers ledgers;

  private TestPlane(Path root) {
    this.root = root;
    this.ledgers = new Ledgers(new PlaneLayout(root), LedgerSettings.all(Durability.NONE));
  }

  static TestPlane at(Path root) {
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new TestPlane(root);
  }

  /** A plane whose root is whatever {@code root} is (a file, say); nothing is created. */
  static TestPlane atExisting(Path root) {
    return new TestPlane(root);
  }

  ToolContext context(String agentClass) {
    return context(agentClass, SESSION);
  }

  ToolContext context(String agentClass, String sessionId) {
    return ToolContext.of(catalog.agent(agentClass), ledgers, sessionId);
  }

  IntegrityGates gates() {
    return IntegrityGates.of(catalog, ResourceSource.classpath(), ledgers);
  }

  ToolDispatcher dispatcher() {
    return ToolDispatcher.withBuiltins(catalog, ledgers, gates());
  }

  Path write(String relative, String text) {
    return write(relative, text.getBytes(StandardCharsets.UTF_8));
  }

  Path write(String relative, byte[] bytes) {
    Path p = root.resolve(relative);
    try {
      Files.createDirectories(p.getParent());
      return Files.write(p, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode args(String json) {
    return Json.parse(json);
  }

  @Override
  public void close() {
    ledgers.close();
  }
}
