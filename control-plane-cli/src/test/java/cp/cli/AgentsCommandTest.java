package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.tools.mcp.ReferenceServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpctl agents} and {@code cpctl agents check [DIR]}: definitions checked with no worker and
 * no provider, one line per problem, exit 2 on any error; the listing of every class.
 */
class AgentsCommandTest {
  @TempDir Path home;
  @TempDir Path dir;

  private static final String OK = "agent_class: %s\ninstructions: x\n";

  /** Sixteen definitions, each wrong in one way (file name → content). */
  static Map<String, String> malformed() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("01-unknown-key.yaml", OK.formatted("A01") + "instructons: typo\n");
    m.put("02-bad-class.yaml", "agent_class: weather\ninstructions: x\n");
    m.put("03-builtin-clash.yaml", OK.formatted("ADMIN"));
    m.put("04-twice.yaml", OK.formatted("A00"));
    m.put("05-unknown-tool.yaml", OK.formatted("A05") + "tools: [shell]\n");
    m.put("06-bad-pattern.yaml", OK.formatted("A06") + "tools: ['srv/a/b']\n");
    m.put("07-missing-file.yaml", "agent_class: A07\ninstructions_file: none.md\n");
    m.put("08-both.yaml", OK.formatted("A08") + "instructions_file: none.md\n");
    m.put("09-command.yaml", OK.formatted("A09") + "mcp_servers: {s: {command: no-such-mcp-binary}}\ntools: ['s/*']\n");
    m.put("10-url.yaml", OK.formatted("A10") + "mcp_servers: {s: {url: 'ftp://x/mcp'}}\ntools: ['s/*']\n");
    m.put("11-output-schema.yaml", OK.formatted("A11") + "output_schema: {type: object, required: 3}\n");
    m.put("12-provider.yaml", OK.formatted("A12") + "model: {provider: gemini}\n");
    m.put("13-budget.yaml", OK.formatted("A13") + "budget: {turn_limit: -1}\n");
    m.put("14-approval.yaml", OK.formatted("A14") + "tools: [read_file]\napproval: {read_file: maybe}\n");
    m.put("15-unset.yaml", OK.formatted("A15") + "mcp_servers: {s: {url: 'http://127.0.0.1:1/mcp',"
        + " headers: {X-Key: '${CP_TEST_NOT_SET}'}}}\ntools: ['s/*']\n");
    m.put("16-not-yaml.yaml", "agent_class: [A16\n");
    return m;
  }

  @Test
  void checkOnSixteenMalformedDefinitions_printsOneLineEach_andExitsTwo() throws IOException {
    write("00-valid.yaml", OK.formatted("A00"));
    malformed().forEach((file, text) -> write(file, text));
    write("17-secret.yaml", OK.formatted("A17") + "mcp_servers: {s: {url: 'http://127.0.0.1:1/mcp',"
        + " headers: {Authorization: 'Bearer abc123'}}}\ntools: ['s/*']\n");

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    List<String> lines = r.out().lines().toList();
    assertEquals(17, lines.size(), r::describe);
    List<String> files = malformed().keySet().stream().toList();
    for (int i = 0; i < files.size(); i++) {
      assertTrue(lines.get(i).startsWith(files.get(i) + ": "), "line " + i + " names its file: " + lines.get(i));
      assertTrue(lines.get(i).split(": ").length >= 2 && !lines.get(i).contains("Exception"), lines.get(i));
    }
    assertEquals("17-secret.yaml: mcp_servers.s.headers.Authorization: warning: a secret is written in the file;"
        + " write ${NAME} and set NAME in the worker's environment, so the file can be shared and committed",
        lines.get(16));
    assertEquals("04-twice.yaml: agent_class: A00 is also defined in 00-valid.yaml; an agent class is defined once",
        lines.get(3));
    assertTrue(lines.get(2).equals("03-builtin-clash.yaml: agent_class: ADMIN is already defined in agents/admin.json"
        + " (built in); choose another class name"), r::describe);
    assertTrue(r.err().contains("2 agent definition(s) valid, 16 error(s), 1 warning(s)"), r::describe);
    assertTrue(!r.out().contains("abc123"), "the secret itself is never printed");
    assertNoStackTrace(r);
  }

  @Test
  void check_reportsEveryProblemOfAFileInOneRun_schemaAndBeyond() throws IOException {
    write("mix.yaml", "agent_class: MIX\ninstructons: typo\ninstructions_file: none.md\ntools: [shell, read_file]\n"
        + "budget: {turn_limit: -1}\npermissions: {read: ['HO2/[']}\n");

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    // Before, the schema's two problems hid the rest until they were fixed.
    for (String line : List.of("mix.yaml: instructons: unknown key", "mix.yaml: budget.turn_limit: ",
        "mix.yaml: instructions_file: ", "mix.yaml: tools[0]: unknown tool 'shell'",
        "mix.yaml: permissions.read[0]: invalid glob 'HO2/['")) {
      assertTrue(r.out().contains(line), line + "\n" + r.describe());
    }
    assertEquals(5, r.out().lines().filter(l -> l.startsWith("mix.yaml: ")).count(), r::describe);
  }

  @Test
  void check_reportsAnUnpricedModel_besideTheFilesOtherErrors_inOneRun() throws IOException {
    write("both.yaml", OK.formatted("BOTH") + "tools: [shell]\nmodel: {provider: anthropic, name: unpriced-z}\n"
        + "budget: {session_usd: 0.5}\n");

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.out().contains("both.yaml: tools[0]: unknown tool 'shell'"), r::describe);
    // Before, the price was checked only once everything else in the file was right.
    assertTrue(r.out().contains("both.yaml: model: model 'unpriced-z' has no price"), r::describe);
    assertTrue(r.err().contains("0 agent definition(s) valid, 2 error(s)"), r::describe);
  }

  @Test
  void check_reportsADanglingSymlink_insteadOfSkippingItSilently() throws IOException {
    write("ok.yaml", OK.formatted("A01"));
    Files.createSymbolicLink(dir.resolve("ghost.yaml"), dir.resolve("moved-away.yaml"));

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.out().contains("ghost.yaml: is a symbolic link to " + dir.resolve("moved-away.yaml")
        + ", which does not exist"), r::describe);
  }

  @Test
  void check_onAFileThatIsNotUtf8_namesTheLineAndByteOfTheFirstBadByte() throws IOException {
    byte[] text = "agent_class: NU\ndescription: ok\ninstructions: |\n  line one\n  caf\u00e9 here\n  three\n"
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    Files.write(dir.resolve("nu.yaml"), text);

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    int offset = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf('\u00e9');
    assertTrue(r.out().contains("nu.yaml: is not UTF-8: byte 0xE9 at line 5, column 6 (byte offset " + offset
        + ")"), r::describe);
  }

  @Test
  void checkOnCleanDefinitions_exitsZero_andTakesTheDirectoryFromCpAgentsDir() throws IOException {
    write("weather.yaml", OK.formatted("WEATHER") + "tools: [read_file]\n");
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", dir.toString());

    var r = run(env, "agents", "check");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertEquals("", r.out(), r::describe);
    assertTrue(r.err().contains(dir + ": 1 agent definition(s) valid, 0 error(s), 0 warning(s)"), r::describe);
  }

  /**
   * Issue 23: a definition with a dollar budget whose model or fallback entry has no price stops the
   * worker at start, so the check says so too (it said the definitions were valid): one error per
   * entry, naming the file, the key and the model. Priced by CP_PRICES_FILE, the same files are clean.
   */
  @Test
  void checkOnADollarBudgetWithAnUnpricedModelOrFallback_isAnErrorNamingTheEntry() throws IOException {
    write("budget.yaml", OK.formatted("BUDGET") + "model: {provider: anthropic, name: claude-sonnet-4-5}\n"
        + "fallback: [{provider: openai, name: unpriced-model, base_url: 'http://127.0.0.1:1/v1'}]\n"
        + "budget: {session_usd: 0.5, work_order_usd: 0.3}\n");
    write("primary.yaml", OK.formatted("PRIMARY") + "model: {provider: anthropic, name: unpriced-x}\n"
        + "budget: {session_usd: 0.5}\n");
    write("free.yaml", OK.formatted("FREE") + "model: {provider: anthropic, name: unpriced-y}\n");

    var r = run(CliHarness.env(home), "agents", "check", dir.toString());

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    List<String> lines = r.out().lines().toList();
    assertEquals(2, lines.size(), r::describe);
    assertTrue(lines.contains("budget.yaml: fallback[0]: model 'unpriced-model' has no price, and the agent has a"
        + " dollar budget (budget.work_order_usd/session_usd) that cannot be kept without one: add it to"
        + " CP_PRICES_FILE or remove the dollar budget (the worker will not start)"), r::describe);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("primary.yaml: model: model 'unpriced-x' has no price")),
        r::describe);
    assertTrue(r.err().contains("1 agent definition(s) valid, 2 error(s)"), r::describe);

    var env = CliHarness.env(home);
    env.put("CP_PRICES_FILE", Files.writeString(home.resolve("prices.yaml"), "unpriced-model: {input_per_mtok: 1,"
        + " output_per_mtok: 2}\nunpriced-x: {input_per_mtok: 1, output_per_mtok: 2}\n").toString());
    var priced = run(env, "agents", "check", dir.toString());
    assertEquals(Cpctl.OK, priced.code(), priced::describe);
    assertEquals("", priced.out(), priced::describe);
  }

  @Test
  void checkWithoutADirectory_isAOneLineUsageError() {
    var r = run(CliHarness.env(home), "agents", "check");
    CliHarness.assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("give DIR or set CP_AGENTS_DIR"), r::describe);
  }

  @Test
  void agents_listsTheBuiltInsWithModelToolsApprovalAndBudgets() {
    var r = run(CliHarness.env(home), "agents");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("ADMIN  (built in: agents/admin.json)"), r::describe);
    assertTrue(r.out().contains("write_file [builtin, approval required within 240 s]"), r::describe);
    assertTrue(r.out().contains("RESIDENT  (built in: agents/resident.json)"), r::describe);
    assertTrue(r.out().contains("  budget:   session 60000 tokens, work order 16000 tokens, 20 turns"), r::describe);
    assertTrue(r.out().contains("  model:    the worker's (offline)"), r::describe);
  }

  @Test
  void agents_listsADefinedClassWithItsMcpToolsAsTheServerListsThem() throws IOException {
    write("weather.yaml", """
        agent_class: WEATHER
        instructions: You tell the weather.
        model: {provider: openai, name: llama3, base_url: 'http://127.0.0.1:11434/v1', api_key_env: LOCAL_KEY}
        tools: [read_file, 'everything/*']
        mcp_servers:
          everything:
            command: '%s'
            args: ['%s', stdio]
            env: {SERVER_TOKEN: '${LOCAL_KEY}'}
        approval: {everything/get-env: required}
        budget: {session_tokens: 5000, work_order_tokens: 1000, turn_limit: 3, session_usd: 1.5}
        """.formatted(ReferenceServers.node(), ReferenceServers.everythingScript()));
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", dir.toString());
    env.put("LOCAL_KEY", "very-secret-value");

    var r = run(env, "agents");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("WEATHER  (defined in weather.yaml)"), r::describe);
    assertTrue(r.out().contains("  model:    openai llama3 at http://127.0.0.1:11434/v1, key from $LOCAL_KEY;"
        + " EXCHANGE names it openai@WEATHER"), r::describe);
    assertTrue(r.out().contains("everything/get-sum [mcp:everything]"), r::describe);
    assertTrue(r.out().contains("everything/get-env [mcp:everything, approval required within 240 s]"), r::describe);
    assertTrue(r.out().contains("  mcp:      everything: stdio: " + ReferenceServers.node()), r::describe);
    assertTrue(r.out().contains("(env [SERVER_TOKEN])") && r.out().contains("tools listed, hash "), r::describe);
    assertTrue(r.out().contains("  budget:   session 5000 tokens, work order 1000 tokens, 3 turns, session 1.5 USD"),
        r::describe);
    assertTrue(!r.out().contains("very-secret-value") && !r.err().contains("very-secret-value"), r::describe);
  }

  @Test
  void agents_neverPrintsAValueAnMcpServerTakesFromTheEnvironment_asAnArgument() throws IOException {
    write("svc.yaml", """
        agent_class: SVC
        instructions: You call the service.
        tools: ['svc/*']
        mcp_servers:
          svc:
            command: /bin/sh
            args: ['-c', 'exit 3', '--api-key', '${SVC_TOKEN}', '--url=https://user:${SVC_PASS}@db.example.com']
        """);
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", dir.toString());
    env.put("SVC_TOKEN", "svckey_111122223333");
    env.put("SVC_PASS", "pw_444455556666");

    var r = run(env, "agents");

    assertTrue(r.out().contains("stdio: /bin/sh -c exit 3 --api-key ${SVC_TOKEN} --url=https://user:${SVC_PASS}@db"),
        r::describe);
    for (String secret : List.of("svckey_111122223333", "pw_444455556666")) {
      assertTrue(!r.out().contains(secret) && !r.err().contains(secret), secret + "\n" + r.describe());
    }
  }

  @Test
  void agents_withTwoServersThatHang_saysWhy_andLeavesNoProcessRunning() throws IOException {
    try {
      write("h.yaml", """
          agent_class: HUNG
          instructions: Your servers hang.
          tools: [read_file, 'hung1/*', 'hung2/*']
          mcp_servers:
            hung1: {command: /bin/sh, args: %s}
            hung2: {command: /bin/sh, args: %s}
          """.formatted(yaml(cp.tools.mcp.HangingServer.args(home, "hung1")),
          yaml(cp.tools.mcp.HangingServer.args(home, "hung2"))));
      var env = CliHarness.env(home);
      env.put("CP_AGENTS_DIR", dir.toString());
      env.put("CP_MCP_START_TIMEOUT_MS", "3000");

      var r = run(env, "agents"); // that the two cost one start timeout, not two: PlaneAgentsHungServersTest

      assertEquals(Cpctl.OK, r.code(), r::describe);
      assertEquals(List.of(), cp.tools.mcp.HangingServer.stillRunning(home, "hung1"), "after cpctl agents returned");
      assertEquals(List.of(), cp.tools.mcp.HangingServer.stillRunning(home, "hung2"), "after cpctl agents returned");
      assertTrue(r.out().contains("hung1: stdio: /bin/sh ") && r.out().contains("(not reachable now: it did not answer the"
          + " MCP handshake within the start timeout of 3000 ms (CP_MCP_START_TIMEOUT_MS)"), r::describe);
    } finally {
      cp.tools.mcp.HangingServer.cleanUp(home, "hung1");
      cp.tools.mcp.HangingServer.cleanUp(home, "hung2");
    }
  }

  private static String yaml(List<String> items) {
    return items.stream().map(i -> "'" + i + "'").collect(java.util.stream.Collectors.joining(", ", "[", "]"));
  }

  @Test
  void anErrorLine_isMasked_evenWhenItQuotesWhatAUserPutThere() {
    var env = CliHarness.env(home);
    env.put("MY_API_KEY", "abcdefghijklmnop1234");
    var r = run(env, "--verbose", "replay", home.resolve("abcdefghijklmnop1234.json").toString());
    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.err().contains("[masked:MY_API_KEY]"), r::describe);
    assertTrue(!r.err().contains("abcdefghijklmnop1234") && !r.out().contains("abcdefghijklmnop1234"), r::describe);
  }

  @Test
  void agents_showsAToolTheServerListsWithABadSchema_asLeftOut_andListsEveryClass() throws IOException {
    write("f.yaml", """
        agent_class: FAKER
        instructions: You use the fake server.
        tools: [read_file, 'fake/*']
        mcp_servers:
          fake: {command: '%s', args: ['-u', '%s'], env: {MODE: badschema}}
        """.formatted(cp.tools.mcp.MisbehavingServer.python(), cp.tools.mcp.MisbehavingServer.script(home)));
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", dir.toString());

    var r = run(env, "agents");

    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertTrue(r.out().contains("ADMIN  (built in") && r.out().contains("FAKER  (defined in f.yaml)"), r::describe);
    assertTrue(r.out().contains("fake/echo [mcp:fake]") && !r.out().contains("fake/bad [mcp:fake"), r::describe);
    assertTrue(r.out().contains("            left out: fake/bad: its inputSchema is not a valid JSON Schema: "),
        r::describe);
  }

  @Test
  void aWorkerWithABadDefinition_stopsAtStartUp_withOneLinePerProblem() throws Exception {
    write("w.yaml", "agent_class: RESIDENT\ninstructions: x\n");
    var env = CliHarness.env(home);
    env.put("CP_AGENTS_DIR", dir.toString());
    env.put("TEMPORAL_ADDRESS", "127.0.0.1:" + CliHarness.closedPort());

    var r = run(env, "worker");

    assertEquals(Cpctl.BAD_INPUT, r.code(), r::describe);
    assertTrue(r.err().contains("w.yaml: agent_class: RESIDENT is already defined in agents/resident.json"),
        r::describe);
    assertNoStackTrace(r);
  }

  private void write(String file, String text) {
    try {
      Files.writeString(dir.resolve(file), text);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
