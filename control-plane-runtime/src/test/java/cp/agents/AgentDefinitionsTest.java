package cp.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.AgentConfig;
import cp.contracts.Catalog;
import cp.contracts.CatalogException;
import cp.contracts.ToolSpec;
import cp.tools.registry.ToolRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Agent definitions checked with no worker and no provider: each malformed definition gives one
 * clear line naming the file, the key and what is wrong; a valid one becomes the same agent
 * configuration the built-ins have.
 */
class AgentDefinitionsTest {
  static final String OK = "agent_class: WEATHER\ninstructions: You tell the weather.\n";

  @TempDir Path dir;

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("WEATHER_TOKEN", "t0k3n");
    return env;
  }

  private AgentDefinitions.Result check() {
    return AgentDefinitions.check(dir, Catalog.loadDefault(), ToolRegistry.ofBuiltins(), env());
  }

  private void write(String file, String text) throws IOException {
    Files.writeString(dir.resolve(file), text);
  }

  static Stream<Arguments> malformed() {
    String stdio = "mcp_servers:\n  srv:\n    command: node\n";
    return Stream.of(
        Arguments.of("unknown key", OK + "modle: {name: x}\n",
            "w.yaml: modle: unknown key (known here: agent_class, description, instructions, instructions_file, model,"
                + " max_tokens, fallback, tools, mcp_servers, approval, approval_timeout_seconds, tool_timeout_seconds,"
                + " budget, permissions, output_schema)"),
        Arguments.of("unknown key inside model", OK + "model: {provider: openai, temperature: 0}\n",
            "w.yaml: model.temperature: unknown key (known here: provider, name, base_url, api_key_env)"),
        Arguments.of("bad class name", "agent_class: weather\ninstructions: x\n",
            "w.yaml: agent_class: must be upper-case letters, digits and _, starting with a letter (e.g. WEATHER)"),
        Arguments.of("clash with a built-in", "agent_class: ADMIN\ninstructions: x\n",
            "w.yaml: agent_class: ADMIN is already defined in agents/admin.json (built in); choose another class name"),
        Arguments.of("unknown tool", OK + "tools: [read_file, shell]\n",
            "w.yaml: tools[1]: unknown tool 'shell' (known: read_file, query_ledger, list_packages, gate_check,"
                + " write_file; an MCP tool is <server>/<tool>)"),
        Arguments.of("bad pattern", OK + stdio + "tools: ['srv/*/x']\n",
            "w.yaml: tools[0]: bad pattern 'srv/*/x': a grant is a tool name (letters, digits, _ and -),"
                + " <server>/<tool> or <server>/*"),
        Arguments.of("grant of an undefined server", OK + "tools: [ghost/echo]\n",
            "w.yaml: tools[0]: 'ghost/echo' names MCP server 'ghost', which mcp_servers does not define (defined: none)"),
        Arguments.of("missing instructions_file", "agent_class: WEATHER\ninstructions_file: prompts/none.md\n",
            "w.yaml: instructions_file: {dir}/prompts/none.md does not exist (a path relative to the definition)"),
        Arguments.of("both instructions and instructions_file", OK + "instructions_file: x.md\n",
            "w.yaml: instructions_file: give instructions or instructions_file, not both"),
        Arguments.of("no instructions at all", "agent_class: WEATHER\n",
            "w.yaml: instructions: is required: the agent's system prompt, as text (instructions) or in a file next"
                + " to the definition (instructions_file)"),
        Arguments.of("stdio command not found", OK + "mcp_servers:\n  srv:\n    command: no-such-mcp-binary\n"
            + "tools: ['srv/*']\n",
            "w.yaml: mcp_servers.srv.command: 'no-such-mcp-binary' was not found on PATH (" + System.getenv("PATH") + ")"),
        Arguments.of("malformed URL", OK + "mcp_servers:\n  srv:\n    url: 'http//127.0.0.1:3001/mcp'\n"
            + "tools: ['srv/*']\n",
            "w.yaml: mcp_servers.srv.url: 'http//127.0.0.1:3001/mcp' is not an http:// or https:// URL with a host,"
                + " e.g. http://127.0.0.1:3001/mcp"),
        Arguments.of("stdio and http at once", OK + "mcp_servers:\n  srv:\n    command: node\n    url: http://x/mcp\n"
            + "tools: ['srv/*']\n",
            "w.yaml: mcp_servers.srv: give command (stdio) or url (HTTP), not both"),
        Arguments.of("an unset ${NAME}", OK + "mcp_servers:\n  srv:\n    command: node\n    env:\n"
            + "      API_KEY: '${CP_TEST_UNSET_VARIABLE}'\ntools: ['srv/*']\n",
            "w.yaml: mcp_servers.srv.env.API_KEY: ${CP_TEST_UNSET_VARIABLE} names a variable that is not set in the"
                + " environment; set CP_TEST_UNSET_VARIABLE for the worker (and for cpctl agents check)"),
        Arguments.of("invalid output_schema", OK + "output_schema: {type: object, properties: {t: {type: 12}}}\n",
            "w.yaml: output_schema.properties.t.type: not a valid JSON Schema: "),
        Arguments.of("output_schema not an object", OK + "output_schema: {type: string}\n",
            "w.yaml: output_schema.type: must be \"object\": the reply's result is a JSON object"),
        Arguments.of("bad provider", OK + "model: {provider: gemini}\n",
            "w.yaml: model.provider: must be anthropic, openai or offline"),
        Arguments.of("bad fallback URL", OK + "fallback:\n  - {provider: openai, base_url: 'localhost:11434'}\n",
            "w.yaml: fallback[0].base_url: 'localhost:11434' is not an http:// or https:// URL with a host"),
        Arguments.of("negative budget", OK + "budget: {session_tokens: -5}\n",
            "w.yaml: budget.session_tokens: "),
        Arguments.of("budgets that do not nest", OK + "budget: {session_tokens: 1000, work_order_tokens: 5000}\n",
            "w.yaml: budget.work_order_tokens: 5000 exceeds budget.session_tokens 1000: a work order cannot spend"
                + " more than its session"),
        Arguments.of("bad approval value", OK + "tools: [read_file]\napproval: {read_file: sometimes}\n",
            "w.yaml: approval.read_file: must be required or never"),
        Arguments.of("approval of a tool not granted", OK + "tools: [read_file]\napproval: {write_file: required}\n",
            "w.yaml: approval.write_file: 'write_file' matches no granted tool (tools: read_file)"),
        Arguments.of("tool timeout of a tool not granted", OK + "tools: [read_file]\ntool_timeout_seconds: {'srv/*': 5}\n",
            "w.yaml: tool_timeout_seconds.srv/*: 'srv/*' matches no granted tool (tools: read_file)"),
        Arguments.of("tool timeout not a number of seconds", OK + "tools: [read_file]\ntool_timeout_seconds: {read_file: 0}\n",
            "w.yaml: tool_timeout_seconds.read_file: must have a minimum value of 1"),
        Arguments.of("approval timeout past the turn deadline", OK + "tools: [write_file]\n"
            + "approval: {write_file: required, approval_timeout_seconds: 600}\n",
            "w.yaml: approval_timeout_seconds: 600 s is not shorter than the turn's deadline of 300 s: the turn would"
                + " be cancelled before the approval timed out"),
        Arguments.of("a glob leaving the plane root", OK + "permissions: {read: ['../etc/*']}\n",
            "w.yaml: permissions.read[0]: must be a glob relative to the plane root: no leading /, no drive letter,"
                + " no backslash, no .. segment"),
        Arguments.of("not YAML", "agent_class: [WEATHER\n", "w.yaml: not valid YAML: "),
        Arguments.of("a key given twice", OK + "instructions: again\n", "w.yaml: not valid YAML: Duplicate field"),
        Arguments.of("api key written instead of its variable", OK + "model: {api_key_env: 'sk-abc.123'}\n",
            "w.yaml: model.api_key_env: must be the name of an environment variable (letters, digits, _), not the key"
                + " itself"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aMalformedDefinition_givesOneLineNamingFileKeyAndWhatIsWrong(String what, String yaml, String expected)
      throws IOException {
    Files.createDirectories(dir.resolve("prompts"));
    write("w.yaml", yaml);

    AgentDefinitions.Result r = check();

    List<String> errors = r.errors().stream().map(Object::toString).toList();
    assertEquals(1, errors.size(), () -> what + ": " + errors);
    String want = expected.replace("{dir}", dir.toString());
    assertTrue(errors.get(0).startsWith(want), () -> what + ":\n got  " + errors.get(0) + "\n want " + want);
    assertEquals(List.of(), r.definitions());
  }

  @Test
  void aDefinitionRegisteredInCode_isCheckedWithTheDirectorysOnes_aClassInBothIsNamedTwice() throws IOException {
    write("weather.yaml", OK);
    DefinitionSource inCode = DefinitionSource.ofText("weather (registered in code)", OK);
    DefinitionSource other = DefinitionSource.ofText("news (registered in code)",
        "agent_class: NEWS\ninstructions: You tell the news.\ntools: [nope]\n");

    AgentDefinitions.Result r = AgentDefinitions.check(List.of(DefinitionSource.of(dir.resolve("weather.yaml")), inCode,
        other), Catalog.loadDefault(), ToolRegistry.ofBuiltins(), env());

    assertEquals(List.of("weather (registered in code): agent_class: WEATHER is also defined in weather.yaml; an agent"
        + " class is defined once", "news (registered in code): tools[0]: unknown tool 'nope' (known: read_file,"
        + " query_ledger, list_packages, gate_check, write_file; an MCP tool is <server>/<tool>)"),
        r.errors().stream().map(Object::toString).toList());
  }

  @Test
  void aSecondYamlDocument_isAnError_notDroppedSilently() throws IOException {
    write("two.yaml", OK + "---\n" + OK.replace("WEATHER", "OTHER"));
    AgentDefinitions.Result r = check();
    assertEquals(List.of("two.yaml: holds 2 YAML documents (separated by ---); a file defines one agent: put each in"
        + " a file of its own"), r.errors().stream().map(Object::toString).toList());
  }

  @Test
  void aFileOverTheLimit_isRefusedBeforeItIsParsed() throws IOException {
    write("huge.yaml", OK + "description: '" + "x".repeat(DefinitionReader.MAX_FILE_BYTES) + "'\n");
    AgentDefinitions.Result r = check();
    assertTrue(r.errors().stream().map(Object::toString).anyMatch(e -> e.startsWith("huge.yaml: is ")
        && e.contains("a definition may be at most " + DefinitionReader.MAX_FILE_BYTES + " bytes")), r.errors()::toString);
  }

  @Test
  void aClassDefinedTwice_namesBothFiles() throws IOException {
    write("a.yaml", OK);
    write("b.json", "{\"agent_class\": \"WEATHER\", \"instructions\": \"again\"}");

    AgentDefinitions.Result r = check();

    assertEquals(List.of("b.json: agent_class: WEATHER is also defined in a.yaml; an agent class is defined once"),
        r.errors().stream().map(Object::toString).toList());
  }

  @Test
  void aSecretWrittenInAHeader_isAWarning_notAnError_andTheReferencedOneIsFine() throws IOException {
    write("w.yaml", OK + "mcp_servers:\n  remote:\n    url: http://127.0.0.1:1/mcp\n    headers:\n"
        + "      Authorization: Bearer abc123\n      X-Api-Key: '${WEATHER_TOKEN}'\ntools: ['remote/*']\n");

    AgentDefinitions.Result r = check();

    assertEquals(List.of(), r.errors());
    assertEquals(List.of("w.yaml: mcp_servers.remote.headers.Authorization: warning: a secret is written in the file;"
        + " write ${NAME} and set NAME in the worker's environment, so the file can be shared and committed"),
        r.warnings().stream().map(Object::toString).toList());
    var spec = (cp.tools.mcp.McpServerSpec.Http) r.servers().get(0);
    assertEquals("t0k3n", spec.headers().get("X-Api-Key"), "the reference is replaced by the variable");
    assertTrue(!spec.toString().contains("t0k3n") && !spec.toString().contains("abc123"), spec::toString);
  }

  @Test
  void manyDefinitionsWithProblems_areAllReported_eachFileOnItsOwnLines() throws IOException {
    write("a.yaml", "agent_class: a\ninstructions: x\n");
    write("b.yml", OK.replace("WEATHER", "B") + "budget: {turn_limit: 0}\n");
    write("c.json", "[1, 2]");
    write("notes.md", "not a definition: ignored");

    List<String> lines = check().errors().stream().map(Object::toString).toList();

    assertEquals(3, lines.size(), lines::toString);
    assertTrue(lines.get(0).startsWith("a.yaml: agent_class: "), lines::toString);
    assertTrue(lines.get(1).startsWith("b.yml: budget.turn_limit: "), lines::toString);
    assertEquals("c.json: must be a mapping of keys (agent_class, instructions, ...), not array", lines.get(2));
  }

  @Test
  void aRelativeCommand_runsFromTheDefinitionsDirectory_asTheCheckFoundIt_notTheWorkersWorkingDirectory()
      throws IOException {
    Path script = dir.resolve("run.sh");
    Files.writeString(script, "#!/bin/sh\nexit 0\n");
    script.toFile().setExecutable(true);
    write("w.yaml", OK + "mcp_servers:\n  srv:\n    command: ./run.sh\ntools: ['srv/*']\n");
    AgentDefinitions.Result r = check();
    assertEquals(List.of(), r.problems());
    cp.tools.mcp.McpServerSpec.Stdio spec = (cp.tools.mcp.McpServerSpec.Stdio) r.servers().get(0);
    assertEquals(script.toAbsolutePath().normalize().toString(), spec.command());
  }

  @Test
  void theApprovalTimeout_isEveryApprovals_alsoOfWriteFileWhenTheMapNamesAnotherTool() throws IOException {
    write("w.yaml", OK + "tools: [read_file, write_file]\napproval: {read_file: required}\n"
        + "approval_timeout_seconds: 60\n");
    AgentDefinitions.Result r = check();
    assertEquals(List.of(), r.problems());
    Catalog base = Catalog.loadDefault();
    AgentConfig w = base.withAgents(List.of(DefinitionConfigs.toAgent(r.definitions().get(0),
        ToolRegistry.ofBuiltins(), base))).agent("WEATHER");
    assertEquals(60L, w.tool("write_file").orElseThrow().approvalTimeoutSeconds(), "required by default, 60 s");
    assertEquals(60L, w.tool("read_file").orElseThrow().approvalTimeoutSeconds());
  }

  @Test
  void aValidDefinition_becomesAnAgentConfigBesideTheBuiltIns_withItsOwnDefaultAttentionTemplate() throws IOException {
    Files.writeString(dir.resolve("weather.md"), "You tell the weather, briefly.");
    write("weather.yaml", """
        agent_class: WEATHER
        description: Tells the weather.
        instructions_file: weather.md
        model: {provider: openai, name: llama3, base_url: 'http://127.0.0.1:11434/v1'}
        max_tokens: 800
        fallback: [{provider: offline}]
        tools: [read_file, write_file]
        approval:
          write_file: required
          approval_timeout_seconds: 60
        budget: {session_tokens: 50000, work_order_tokens: 8000, turn_limit: 7, session_usd: 2.5, work_order_usd: 0.5}
        permissions: {read: ['HO2/**'], write: ['HO2/*']}
        output_schema: {type: object, properties: {city: {type: string}}, required: [city]}
        """);
    Catalog base = Catalog.loadDefault();
    AgentDefinitions.Result r = check();
    assertEquals(List.of(), r.problems());

    Catalog catalog = base.withAgents(List.of(DefinitionConfigs.toAgent(r.definitions().get(0),
        ToolRegistry.ofBuiltins(), base)));

    assertEquals(List.of("ADMIN", "RESIDENT", "WEATHER"), catalog.agentClasses());
    AgentConfig w = catalog.agent("weather");
    assertEquals("You tell the weather, briefly.", w.systemPrompt());
    assertEquals(List.of("read_file", "write_file"), w.toolIds());
    ToolSpec write = w.tool("write_file").orElseThrow();
    assertEquals(ToolSpec.REQUIRED, write.approval());
    assertEquals(60L, write.approvalTimeoutSeconds());
    assertEquals(base.agent("ADMIN").tool("read_file").orElseThrow().parameters(), w.tool("read_file").orElseThrow()
        .parameters(), "a built-in tool keeps the schema the shipped agents give it");
    assertEquals(50_000, w.budget().sessionTokenLimit());
    assertEquals(8000, w.budget().woTokenBudget());
    assertEquals(7, w.budget().turnLimit());
    assertEquals(List.of("HO2/**"), w.permissions().read());
    assertEquals("ATT-WEATHER-001", w.attentionTemplateId());
    assertEquals(List.of("WEATHER"), catalog.attentionTemplate("ATT-WEATHER-001").appliesTo().agentClass());
    assertEquals("weather.yaml", catalog.agentFile("WEATHER").orElseThrow());
    List<cp.contracts.InstalledArtifact> added = catalog.artifacts().subList(base.artifacts().size(),
        catalog.artifacts().size());
    assertEquals(base.artifacts(), catalog.artifacts().subList(0, base.artifacts().size()));
    assertEquals(1, added.size(), "the definition file is an installed artifact too: " + added);
    assertEquals(cp.contracts.ArtifactKind.AGENT_DEFINITION, added.get(0).kind());
    assertEquals(dir.resolve("weather.yaml").toAbsolutePath().toString(), added.get(0).file());
    assertEquals(cp.model.Json.sha256(Files.readAllBytes(dir.resolve("weather.yaml"))), added.get(0).sha256(),
        "the hash of the file's own bytes, so list_packages and G-ARTIFACTS can check it");
    AgentDefinition d = r.definitions().get(0).definition();
    assertEquals(2.5, d.budget().sessionUsd());
    assertEquals("offline", d.fallback().get(0).provider());
  }

  @Test
  void addingAClassTheCatalogAlreadyHas_isRefusedNamingBothFiles() throws IOException {
    write("w.yaml", OK);
    Catalog base = Catalog.loadDefault();
    var added = DefinitionConfigs.toAgent(check().definitions().get(0), ToolRegistry.ofBuiltins(), base);
    Catalog once = base.withAgents(List.of(added));

    var e = org.junit.jupiter.api.Assertions.assertThrows(CatalogException.class, () -> once.withAgents(List.of(added)));

    assertEquals(List.of("w.yaml: agent_class: WEATHER is already defined in w.yaml; an agent class is defined once"
        + " (rename it, or remove one of the two files)"), e.problems());
  }

  @Test
  void aDirectoryThatIsMissing_isOneProblem() {
    var r = AgentDefinitions.check(dir.resolve("nope"), Catalog.loadDefault(), ToolRegistry.ofBuiltins(), env());
    assertEquals(1, r.errors().size());
    assertTrue(r.errors().get(0).toString().endsWith("nope: is not a directory (CP_AGENTS_DIR names a directory of"
        + " *.yaml, *.yml or *.json agent definitions)"), r.errors()::toString);
  }
}
