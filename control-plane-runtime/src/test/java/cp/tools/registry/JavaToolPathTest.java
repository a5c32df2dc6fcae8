package cp.tools.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import cp.contracts.SchemaValidator;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import cp.tools.spi.ToolCallContext;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaToolPathTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaValidator VALIDATOR = new SchemaValidator();
  private static final ToolCallContext CTX = new ToolCallContext("SES-1", "WEATHER", "WO-1", "key-1");

  @TempDir Path tmp;

  private JavaToolPath load(Path... entries) {
    return JavaToolPath.load(String.join(File.pathSeparator, java.util.Arrays.stream(entries).map(Path::toString)
        .toList()), getClass().getClassLoader(), VALIDATOR);
  }

  @Test
  void aJarAndAClassDirectory_areFoundWithServiceLoader_andTheirToolsRun() throws Exception {
    Path jar = ToolJars.jar(tmp.resolve("weather.jar"), Map.of("acme.Weather",
        ToolJars.provider("acme", "Weather", ToolJars.cityTool("get_weather"), ToolJars.cityTool("get-forecast"))),
        List.of("acme.Weather"));
    Path dir = ToolJars.classes(tmp.resolve("geo"), Map.of("geo.Geo", ToolJars.provider("geo", "Geo",
        ToolJars.cityTool("locate"))), List.of("geo.Geo"));

    try (JavaToolPath path = load(jar, dir); JavaToolRunner runner = new JavaToolRunner()) {
      assertEquals(List.of("get_weather", "get-forecast", "locate"), path.tools().stream().map(JavaTool::name).toList());
      assertEquals(jar.toString(), path.tools().get(0).source());
      assertEquals(dir.toString(), path.tools().get(2).source());
      ToolResult r = runner.run(path.tools().get(1), JSON.readTree("{\"city\":\"Porto\"}"), CTX, Duration.ofSeconds(5));
      assertEquals(ToolResult.ok("get-forecast: Porto key key-1"), r);
      RegisteredTool entry = path.tools().get(1).registered();
      assertEquals(ToolOrigin.JAVA, entry.origin());
      assertEquals(List.of("city"), List.of(entry.argumentsSchema().orElseThrow().get("required").get(0).asText()));
    }
  }

  @Test
  void aDirectoryOfJars_loadsEveryJarInIt() throws Exception {
    Path plugins = Files.createDirectories(tmp.resolve("plugins"));
    ToolJars.jar(plugins.resolve("a.jar"), Map.of("a.A", ToolJars.provider("a", "A", ToolJars.cityTool("tool_a"))),
        List.of("a.A"));
    ToolJars.jar(plugins.resolve("b.jar"), Map.of("b.B", ToolJars.provider("b", "B", ToolJars.cityTool("tool_b"))),
        List.of("b.B"));

    try (JavaToolPath path = load(plugins)) {
      assertEquals(List.of("tool_a", "tool_b"), path.tools().stream().map(JavaTool::name).toList());
    }
  }

  @Test
  void theSameProviderInTwoJars_isRefusedNamingBoth_notSilentlyTheFirst() throws Exception {
    Map<String, String> src = Map.of("acme.Weather", ToolJars.provider("acme", "Weather", ToolJars.cityTool("w")));
    Path one = ToolJars.jar(tmp.resolve("one.jar"), src, List.of("acme.Weather"));
    Path two = ToolJars.jar(tmp.resolve("two.jar"), src, List.of("acme.Weather"));

    var e = assertThrows(ToolRegistryException.class, () -> load(one, two));

    assertEquals(List.of(two + ": provider acme.Weather is also listed by " + one
        + "; only one would be loaded: remove one of the two from CP_TOOLS_PATH"), e.problems());
  }

  @Test
  void badDescriptorsAndSchemas_failAtRegistration_namingTheJarAndTheTool() throws Exception {
    String badSchema = "new ToolBinding(ToolDescriptor.of(\"bad_schema\", \"d\", "
        + "\"{\\\"type\\\":\\\"object\\\",\\\"properties\\\":{\\\"n\\\":{\\\"type\\\":\\\"integr\\\"}}}\"), "
        + "(a, c) -> ToolCallResult.text(\"x\"))";
    Path schemaJar = ToolJars.jar(tmp.resolve("schema.jar"), Map.of("s.S", ToolJars.provider("s", "S", badSchema)),
        List.of("s.S"));
    String badName = "ToolBinding.of(\"get weather\", \"d\", CityArgs.class, (a, c) -> ToolCallResult.text(\"x\"))";
    Path nameJar = ToolJars.jar(tmp.resolve("name.jar"), Map.of("n.N", ToolJars.provider("n", "N", badName)),
        List.of("n.N"));
    Path missingClass = ToolJars.jar(tmp.resolve("missing.jar"), Map.of("m.M", ToolJars.provider("m", "M",
        ToolJars.cityTool("m"))), List.of("m.Nope"));

    var e = assertThrows(ToolRegistryException.class, () -> load(schemaJar, nameJar, missingClass, tmp.resolve("gone.jar")));

    List<String> p = e.problems();
    assertEquals(4, p.size(), p::toString);
    assertTrue(p.get(0).equals("CP_TOOLS_PATH: " + tmp.resolve("gone.jar") + " does not exist"), p::toString);
    assertTrue(p.stream().anyMatch(l -> l.startsWith(schemaJar + ": tool bad_schema: its argument schema is not a valid"
        + " JSON Schema: ")), p::toString);
    assertTrue(p.stream().anyMatch(l -> l.startsWith(nameJar + ": provider n.N: cannot list its tools: tool name"
        + " 'get weather' must be 1 to 64 letters, digits, _ or -")), p::toString);
    assertTrue(p.stream().anyMatch(l -> l.startsWith("CP_TOOLS_PATH: ") && l.contains("m.Nope")
        && l.endsWith("(in " + missingClass + ")")), p::toString);
  }

  @Test
  void twoJarsWithTheSameToolName_stopTheRegistryNamingBothJars() throws Exception {
    Path one = ToolJars.jar(tmp.resolve("one.jar"), Map.of("a.A", ToolJars.provider("a", "A",
        ToolJars.cityTool("get_weather"))), List.of("a.A"));
    Path two = ToolJars.jar(tmp.resolve("two.jar"), Map.of("b.B", ToolJars.provider("b", "B",
        ToolJars.cityTool("get_weather"))), List.of("b.B"));

    try (JavaToolPath path = load(one, two)) {
      var e = assertThrows(ToolRegistryException.class,
          () -> ToolRegistry.of(path.tools().stream().map(JavaTool::registered).toList()));
      assertEquals(List.of("duplicate tool name 'get_weather': get_weather (java, " + one + ") and get_weather (java, "
          + two + "); rename one or remove one"), e.problems());
    }
  }

  @Test
  void aToolThatFailsHangsOrReportsAnError_givesTheModelAResult_neverAStackTrace() throws Exception {
    String throwing = "ToolBinding.of(\"boom\", \"d\", CityArgs.class, (a, c) -> { throw new IllegalStateException("
        + "\"backend down\\n\\tat secret.Place\"); })";
    String hanging = "ToolBinding.of(\"hang\", \"d\", CityArgs.class, (a, c) -> { Thread.sleep(60_000); return null; })";
    String refusing = "ToolBinding.of(\"nope\", \"d\", CityArgs.class, (a, c) -> ToolCallResult.error(\"no such city\"))";
    String huge = "ToolBinding.of(\"huge\", \"d\", CityArgs.class, (a, c) -> ToolCallResult.text(\"x\".repeat(100_000)))";
    Path jar = ToolJars.jar(tmp.resolve("t.jar"), Map.of("t.T", ToolJars.provider("t", "T", throwing, hanging, refusing,
        huge)), List.of("t.T"));
    var args = JSON.readTree("{\"city\":\"X\"}");

    try (JavaToolPath path = load(jar); JavaToolRunner runner = new JavaToolRunner()) {
      var tools = path.tools();
      assertEquals(ToolResult.error(ToolErrorCodes.TOOL_FAILURE, "boom failed: IllegalStateException: backend down"),
          runner.run(tools.get(0), args, CTX, Duration.ofSeconds(5)));
      ToolResult timedOut = runner.run(tools.get(1), args, CTX, Duration.ofMillis(200));
      assertEquals(ToolErrorCodes.TOOL_TIMEOUT, timedOut.errorCode(), timedOut::toString);
      assertEquals(ToolResult.error(ToolErrorCodes.TOOL_ERROR, "no such city"),
          runner.run(tools.get(2), args, CTX, Duration.ofSeconds(5)));
      ToolResult bounded = runner.run(tools.get(3), args, CTX, Duration.ofSeconds(5));
      assertTrue(bounded.ok() && bounded.content().length() < ToolOutput.MAX_CHARS + 100
          && bounded.content().endsWith("...[cut: 100000 chars in all]"), () -> bounded.content().substring(0, 50));
    }
  }
}
