package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteFilesTest {
  @TempDir Path dir;

  static EvalSuite sample() {
    var input = new CaseInput("What is the weather in Oslo?\nAnd tomorrow?", "weather", "acme", "SES-1", 2,
        Map.of("definition", "weather@3", "PRC-WEATHER-001", "2"));
    var tool = new RecordedToolCall("get_weather", Json.parse("{\"city\":\"Oslo\"}"),
        Json.parse("{\"temp_c\":4,\"sky\":\"rain\"}"), false);
    var recorded = new RecordedTurn("Rain, 4 °C.", Json.parse("{\"answer\":\"rain\"}"), "COMPLETED", true,
        List.of(tool), 0.0012, 120, 30);
    var cites = List.of(new LedgerCite("HOT", "SES-1", "E-7", "ab12", "USER_INPUT"),
        new LedgerCite("HO1", "SES-1", "E-9", "cd34", "TOOL_CALL"));
    var expect = new Expectations(true, true, List.of("get_weather"), List.of("Rain"), List.of("snow"),
        List.of("\\d+ °C"), 0.05, 2000L, "Says it rains");
    var bare = new EvalCase("SES-1#3", new CaseInput("thanks", null, null, null, 3, null),
        new RecordedTurn("You're welcome", null, "COMPLETED", false, List.of(), null, 0, 0), List.of(),
        new Expectations(null, null, List.of(), null, null, null, null, null, null));
    return EvalSuite.of("2026-11-26T13:00:00Z", List.of(new EvalCase("SES-1#2", input, recorded, cites, expect), bare));
  }

  @Test
  void roundTrip_json_and_yaml_giveTheSameSuite() throws Exception {
    for (String name : List.of("suite.json", "suite.yaml", "suite.yml")) {
      Path file = dir.resolve(name);
      SuiteFiles.write(sample(), file);
      assertEquals(sample(), SuiteFiles.read(file), name);
    }
    String json = Files.readString(dir.resolve("suite.json"));
    assertTrue(json.trim().startsWith("{"), json);
    assertTrue(json.contains("\"not_contains\""), "snake_case keys: " + json);
    assertFalse(json.contains("null"), "null fields are omitted: " + json);
    String yaml = Files.readString(dir.resolve("suite.yaml"));
    assertTrue(yaml.contains("cases:") && yaml.contains("max_cost_usd: 0.05"), yaml);
    assertFalse(yaml.trim().startsWith("{"), "YAML, not JSON: " + yaml);
  }

  @Test
  void awkwardTexts_surviveTheYamlRoundTrip_exactly() throws Exception {
    List<String> texts = List.of("trailing newline\n", "two trailing\n\n", "  leading spaces\nand more", "tab\there",
        "trailing space \nline", "null", "true", "- not a list", "# not a comment", "key: value", "'quoted'",
        "\"double\"", "unicode é ✓ 😀", "", " ", "\n", "line\r\nwindows", "\u0007 bell", "a very long line "
        + "x".repeat(300), "| pipe", "> fold", "multi\n  indented\n\tline\n");
    List<EvalCase> cases = new java.util.ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      String t = texts.get(i);
      cases.add(new EvalCase("c" + i, new CaseInput(t, null, null, null, i, null),
          new RecordedTurn(t, Json.object().put("v", t), "success", true,
              List.of(new RecordedToolCall("tool", Json.object().put("arg", t), com.fasterxml.jackson.databind.node
                  .TextNode.valueOf(t), false)), 0.1, 1, 2), List.of(), null));
    }
    EvalSuite suite = EvalSuite.of("2026-11-26T13:00:00Z", cases);
    for (String name : List.of("awkward.yaml", "awkward.json")) {
      Path file = dir.resolve(name);
      SuiteFiles.write(suite, file);
      EvalSuite back = SuiteFiles.read(file);
      for (int i = 0; i < texts.size(); i++) {
        assertEquals(cases.get(i), back.cases().get(i), name + " case " + i + ": " + Json.tree(texts.get(i)));
      }
    }
  }

  @Test
  void emptyToolsExpectation_staysApartFromUnchecked() {
    EvalSuite back = SuiteFiles.parse("s.json", true, SuiteFiles.text(sample(), true).getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(), back.cases().get(1).expect().tools());
    assertNull(back.cases().get(1).expect().contains());
  }

  @Test
  void handWrittenYaml_withOnlyTheNeededKeys_isRead() {
    String yaml = """
        cases:
          - id: greet
            input: {text: hello}
            expect:
              contains: [hi]
              max_tokens: 500
        """;
    EvalSuite suite = parse(yaml, false);
    assertEquals(EvalSuite.CURRENT_VERSION, suite.suiteVersion());
    assertEquals("hello", suite.cases().get(0).input().text());
    assertEquals(List.of("hi"), suite.cases().get(0).expect().contains());
    assertEquals(500L, suite.cases().get(0).expect().maxTokens());
    assertNull(suite.cases().get(0).recorded());
    assertEquals(List.of(), suite.cases().get(0).cites());
    assertEquals("ADMIN", suite.cases().get(0).input().agentClass(), "no agent class: cpctl chat's default");
  }

  @Test
  void aCaseTheSessionWouldRefuse_isRefusedWhenTheSuiteIsRead() {
    assertEquals("cases[0] (a).input.text", bad("cases:\n  - {id: a, input: {text: ''}}\n", false).key());
    assertTrue(bad("cases:\n  - {id: a, input: {text: \"x\\0y\"}}\n", false).getMessage()
        .contains("control character U+0000"));
    assertEquals("cases[0] (a).input.agent_class",
        bad("cases:\n  - {id: a, input: {text: hi, agent_class: 'no such'}}\n", false).key());
    assertEquals("cases[0] (a).input.agent_class",
        bad("cases:\n  - {id: a, input: {text: hi, agent_class: 7}}\n", false).key());
    assertEquals("admin", parse("cases:\n  - {id: a, input: {text: hi, agent_class: admin}}\n", false).cases()
        .get(0).input().agentClass(), "run upper-case, as before");
  }

  @Test
  void unknownTopLevelKey_isRefused_namingFileAndKey() {
    var e = bad("{\"cases\": [], \"case\": []}", true);
    assertTrue(e.getMessage().startsWith("bad.json: case: unknown key (known here: suite_version, frozen_at, frozen_from_unverified_ledger, cases)"),
        e.getMessage());
  }

  @Test
  void unknownExpectKey_isRefused_namingTheCase() {
    var e = bad("cases:\n  - id: a\n    input: {text: x}\n  - id: b\n    input: {text: y}\n"
        + "    expect: {not_contain: [z]}\n", false);
    assertEquals("cases[1] (b).expect.not_contain", e.key());
    assertTrue(e.getMessage().contains("unknown key") && e.getMessage().contains("not_contains"), e.getMessage());
  }

  @Test
  void unknownCaseKey_isRefused() {
    var e = bad("cases:\n  - id: a\n    input: {text: x}\n    expects: {}\n", false);
    assertEquals("cases[0] (a).expects", e.key());
  }

  @Test
  void wrongValueTypes_inExpect_nameTheKeyAndValue() {
    assertEquals("cases[0] (a).expect.max_cost_usd",
        bad(one("max_cost_usd: lots"), false).key());
    assertEquals("cases[0] (a).expect.max_cost_usd", bad(one("max_cost_usd: -1"), false).key());
    assertEquals("cases[0] (a).expect.max_tokens", bad(one("max_tokens: 1.5"), false).key());
    assertEquals("cases[0] (a).expect.contains", bad(one("contains: hello"), false).key());
    assertEquals("cases[0] (a).expect.tools[1]", bad(one("tools: [a, {b: 1}]"), false).key());
    assertEquals("cases[0] (a).expect.gate_passes", bad(one("gate_passes: maybe"), false).key());
    assertEquals("cases[0] (a).expect.judge", bad(one("judge: ''"), false).key());
    var e = bad(one("max_cost_usd: lots"), false);
    assertTrue(e.getMessage().contains("\"lots\""), e.getMessage());
  }

  @Test
  void badRegex_isFoundWhenTheSuiteIsRead_namingTheCase() {
    var e = bad(one("matches: ['ok', '(unclosed']"), false);
    assertEquals("cases[0] (a).expect.matches[1]", e.key());
    assertTrue(e.getMessage().contains("not a valid Java regular expression") && e.getMessage().contains("(unclosed"),
        e.getMessage());
  }

  @Test
  void missingOrDuplicateIds_andMissingInput_areRefused() {
    assertEquals("cases[0].id", bad("cases:\n  - input: {text: x}\n", false).key());
    assertEquals("cases[1].id", bad("cases:\n  - {id: a, input: {text: x}}\n  - {id: a, input: {text: y}}\n", false).key());
    assertEquals("cases[0] (a).input", bad("cases:\n  - {id: a}\n", false).key());
    assertEquals("cases[0] (a).input.text", bad("cases:\n  - {id: a, input: {agent_class: x}}\n", false).key());
    assertEquals("cases", bad("{}", true).key());
    assertEquals("cases", bad("{\"cases\": {}}", true).key());
  }

  @Test
  void newerSuiteVersion_isRefused() {
    var e = bad("{\"suite_version\": 99, \"cases\": []}", true);
    assertEquals("suite_version", e.key());
    assertTrue(e.getMessage().contains("newer"), e.getMessage());
  }

  @Test
  void notJsonOrYaml_emptyOrDuplicateKeys_sayWhere() {
    var e = bad("{\"cases\": [", true);
    assertTrue(e.getMessage().startsWith("bad.json: not valid JSON"), e.getMessage());
    // the parser's words and where, not its description of its source ("[Source: REDACTED (`StreamRead…")
    assertTrue(e.getMessage().endsWith("(start marker at line 1, column 11) (line 1, column 12)"), e.getMessage());
    assertTrue(!e.getMessage().contains("Source") && !e.getMessage().contains("REDACTED"), e.getMessage());
    assertTrue(bad("", false).getMessage().contains("is empty"));
    assertTrue(bad("cases: []\n", false).getMessage().contains("cases: is empty: a suite needs at least one case"),
        bad("cases: []\n", false).getMessage());
    assertTrue(bad("cases: []\ncases: []\n", false).getMessage().contains("not valid YAML"));
    assertTrue(bad("- a\n- b\n", false).getMessage().contains("must be a mapping"));
  }

  @Test
  void missingFile_isNamed() {
    Path file = dir.resolve("nope.yaml");
    var e = assertThrows(SuiteFileException.class, () -> SuiteFiles.read(file));
    assertEquals(file.toString() + ": no such file", e.getMessage());
  }

  @Test
  void unwritableTarget_failsClearly_andLeavesTheOldFileWhole() throws Exception {
    Path file = dir.resolve("suite.yaml");
    SuiteFiles.write(sample(), file);
    String before = Files.readString(file);
    Path inMissingDir = dir.resolve("no-such-dir").resolve("suite.yaml");
    var e = assertThrows(SuiteFileException.class, () -> SuiteFiles.write(sample(), inMissingDir));
    assertTrue(e.getMessage().startsWith(inMissingDir + ": cannot be written"), e.getMessage());
    Path aDirectory = Files.createDirectory(dir.resolve("taken.json"));
    assertThrows(SuiteFileException.class, () -> SuiteFiles.write(sample(), aDirectory));
    assertEquals(before, Files.readString(file));
    try (var files = Files.list(dir)) {
      assertEquals(List.of("suite.yaml", "taken.json"), files.map(p -> p.getFileName().toString()).sorted().toList(),
          "no temporary file left behind");
    }
  }

  private static String one(String expectLine) {
    return "cases:\n  - id: a\n    input: {text: x}\n    expect:\n      " + expectLine + "\n";
  }

  private static EvalSuite parse(String text, boolean json) {
    return SuiteFiles.parse(json ? "s.json" : "s.yaml", json, text.getBytes(StandardCharsets.UTF_8));
  }

  private static SuiteFileException bad(String text, boolean json) {
    return assertThrows(SuiteFileException.class,
        () -> SuiteFiles.parse(json ? "bad.json" : "bad.yaml", json, text.getBytes(StandardCharsets.UTF_8)));
  }
}
