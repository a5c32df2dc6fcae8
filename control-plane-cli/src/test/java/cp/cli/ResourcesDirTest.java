package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.run;
import static cp.cli.CliHarness.runWithInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.contracts.CatalogFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code CP_RESOURCES_DIR}: the catalog loaded from a directory instead of the built-in resources.
 * A malformed contract, prompt pack, agent config or attention template there stops start-up
 * (worker and chat) with exit 2 and a message naming the file and the field, before any service
 * is contacted; a valid directory's limits are the ones the plane enforces.
 */
class ResourcesDirTest {
  @TempDir Path home;
  @TempDir Path resources;

  private Map<String, String> env() {
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_RESOURCES_DIR", resources.toString());
    return env;
  }

  static Stream<Arguments> malformedFiles() {
    return Stream.of(
        Arguments.of("contracts/PRC-SYNTHESIZE-001.json", (Consumer<ObjectNode>) c ->
            ((ObjectNode) c.get("boundary")).put("temperature", 7),
            "contracts/PRC-SYNTHESIZE-001.json: boundary.temperature:"),
        Arguments.of("prompts/PRM-CLASSIFY-001.json", (Consumer<ObjectNode>) p -> p.remove("system"),
            "prompts/PRM-CLASSIFY-001.json: system:"),
        Arguments.of("agents/admin.json", (Consumer<ObjectNode>) a ->
            ((ObjectNode) a.get("budget")).put("turn_limit", 0), "agents/admin.json: budget.turn_limit:"),
        Arguments.of("attention/ATT-ADMIN-001.json", (Consumer<ObjectNode>) t ->
            ((ObjectNode) t.get("budget")).put("max_queries", "many"), "attention/ATT-ADMIN-001.json: budget.max_queries:"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedFiles")
  void aMalformedFile_stopsTheWorkerAtStartUp_namingFileAndField(String file, Consumer<ObjectNode> breakIt,
      String expected) throws Exception {
    CatalogFixture.copyOfShipped(resources).edit(file, breakIt);
    Map<String, String> env = env();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());

    var r = run(env, "worker");

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.err().startsWith("cpctl: the plane's resource files are invalid:"), r::describe);
    assertTrue(r.err().contains(expected), () -> "expected '" + expected + "'\n" + r.describe());
    assertTrue(r.err().contains("directory " + resources.toAbsolutePath()), "says which directory\n" + r.describe());
    assertNoStackTrace(r);
  }

  // Issue 11 item 8: a directory without a contract the workflows plan under was accepted, and every turn
  // then degraded. Refused at start-up, naming what is missing and where it belongs. Since issue 22 the
  // directory adds to the built-in files, so a contract goes missing only when a file replaces it with another id.
  @Test
  void aDirectoryWithoutPrcSynthesize_stopsWorkerAndChatAtStartUp_namingTheContract() throws Exception {
    CatalogFixture.copyOfShipped(resources).edit("contracts/PRC-SYNTHESIZE-001.json",
        c -> c.put("contract_id", "PRC-SYNTHESIZE-002"));
    Map<String, String> env = env();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    String expected = "contracts/: contract_id: no contract PRC-SYNTHESIZE-001, which the turn workflow plans work "
        + "orders under (required: PRC-CLASSIFY-001, PRC-SYNTHESIZE-001, PRC-DEGRADED-001; found: PRC-CLASSIFY-001, "
        + "PRC-DEGRADED-001, PRC-EXECUTE-001, PRC-SYNTHESIZE-002)";

    var worker = run(env, "worker");
    assertEquals(Cpctl.BAD_INPUT, worker.code(), worker::describe);
    assertTrue(worker.err().contains(expected), () -> "expected '" + expected + "'\n" + worker.describe());
    assertNoStackTrace(worker);

    var chat = runWithInput(env(), "hello\n", "chat");
    assertEquals(Cpctl.BAD_INPUT, chat.code(), chat::describe);
    assertTrue(chat.err().contains(expected), chat::describe);
    assertEquals("", chat.out(), "no session was started");
    assertTrue(!Files.exists(home.resolve("HOT/ledger/governance.jsonl")), "nothing was written");
  }

  // Issue 11 item 8: an agent naming a tool no worker implements ('shell') was accepted, and every call to it
  // failed. Refused at start-up naming the file, the field and the known tools.
  @Test
  void anAgentNamingAnUnknownTool_stopsWorkerAndChatAtStartUp_namingFileAndField() throws Exception {
    CatalogFixture.copyOfShipped(resources).edit("agents/admin.json", a -> {
      ObjectNode shell = ((com.fasterxml.jackson.databind.node.ArrayNode) a.get("tools")).addObject()
          .put("tool_id", "shell").put("description", "Run a shell command.");
      shell.putObject("parameters").put("type", "object");
    });
    Map<String, String> env = env();
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());
    String expected = "agents/admin.json: tools[5].tool_id: unknown tool 'shell' "
        + "(known: read_file, query_ledger, list_packages, gate_check, write_file)";

    var worker = run(env, "worker");
    assertEquals(Cpctl.BAD_INPUT, worker.code(), worker::describe);
    assertTrue(worker.err().contains(expected), () -> "expected '" + expected + "'\n" + worker.describe());
    assertNoStackTrace(worker);

    var chat = runWithInput(env(), "hello\n", "chat");
    assertEquals(Cpctl.BAD_INPUT, chat.code(), chat::describe);
    assertTrue(chat.err().contains(expected), chat::describe);
    assertEquals("", chat.out(), "no session was started");
  }

  @Test
  void aMalformedAgent_stopsChatBeforeASessionStarts() {
    CatalogFixture.copyOfShipped(resources).edit("agents/resident.json", a -> a.remove("system_prompt"));

    var r = runWithInput(env(), "hello\n", "chat");

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.err().contains("agents/resident.json"), r::describe);
    assertEquals("", r.out(), "no session was started");
    assertTrue(!Files.exists(home.resolve("HOT/ledger/governance.jsonl")), "nothing was written");
  }

  @Test
  void aDirectoryThatDoesNotExist_isRefusedNamingTheVariable() {
    Map<String, String> env = env();
    env.put("CP_RESOURCES_DIR", resources.resolve("missing").toString());

    var r = run(env, "config");

    CliHarness.assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_RESOURCES_DIR=") && r.err().contains("is not a readable directory"), r::describe);
  }

  // Issue 22: CP_RESOURCES_DIR replaced the built-in catalog, so a directory with one agent file lost ADMIN and
  // RESIDENT. It adds to the built-in files now: the other classes stay, a file of the same name replaces one.
  @Test
  void aDirectoryWithOneFile_addsToTheBuiltInCatalog_insteadOfReplacingIt(@TempDir Path shipped) throws Exception {
    CatalogFixture.copyOfShipped(shipped).edit("agents/resident.json", a -> {
      a.put("agent_class", "HELPER").put("agent_id", "helper-001");
      ((ObjectNode) a.get("attention")).put("template_id", "ATT-HELPER-001");
    }).edit("attention/ATT-RESIDENT-001.json", t -> {
      t.put("template_id", "ATT-HELPER-001");
      ((ObjectNode) t.get("applies_to")).putArray("agent_class").add("HELPER");
    });
    Files.createDirectories(resources.resolve("agents"));
    Files.createDirectories(resources.resolve("attention"));
    Files.copy(shipped.resolve("agents/resident.json"), resources.resolve("agents/helper.json"));
    Files.copy(shipped.resolve("attention/ATT-RESIDENT-001.json"), resources.resolve("attention/ATT-HELPER-001.json"));

    var r = run(env(), "gate-check", "--gate", "G-CATALOG");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("PASS G-CATALOG"), r::describe);
    var agents = run(env(), "agents");
    assertTrue(agents.out().contains("ADMIN  (built in: agents/admin.json)")
        && agents.out().contains("RESIDENT  (built in: agents/resident.json)")
        && agents.out().contains("HELPER  (built in: agents/helper.json)"), agents::describe);
  }

  @Test
  void aValidDirectory_isWhatThePlaneEnforces() {
    CatalogFixture.copyOfShipped(resources).edit("agents/admin.json", a ->
        ((ObjectNode) a.get("budget")).put("turn_limit", 1));

    var r = runWithInput(env(), "hello\nhello again\nexit\n", "chat");

    // The agent's turn limit ended the session with its first turn (SESSION_END turn_limit); the
    // piped chat says so for the second line and stops with exit 1 (input not sent).
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(r.err().contains("has ended (turn_limit at ") && r.err().contains(": all 1 turns its agent allows were used)"),
        r::describe);
    assertTrue(r.out().contains("ended: 1 turn(s)"), r::describe);
    var config = run(env(), "config");
    assertTrue(config.out().contains("built in + directory " + resources.toAbsolutePath() + " (CP_RESOURCES_DIR)"),
        config::describe);
  }
}
