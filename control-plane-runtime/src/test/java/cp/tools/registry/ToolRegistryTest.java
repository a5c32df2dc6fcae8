package cp.tools.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import cp.contracts.BuiltinToolIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {
  private static RegisteredTool java(String name, String jar) {
    return new RegisteredTool(name, ExposedNames.of(name), ToolOrigin.JAVA, jar, "d",
        Optional.of(JsonNodeFactory.instance.objectNode().put("type", "object")));
  }

  private static RegisteredTool mcp(String server, String tool) {
    return new RegisteredTool(server + "/" + tool, ExposedNames.ofMcp(server, tool), ToolOrigin.mcp(server),
        "stdio node", "d", Optional.empty());
  }

  @Test
  void builtinJavaAndMcpTools_shareOneNamespace_eachWithItsOrigin() {
    List<RegisteredTool> all = new ArrayList<>(ToolRegistry.builtins());
    all.add(java("get-weather", "/x/weather.jar"));
    all.add(mcp("everything", "get-sum"));
    all.add(mcp("everything", "echo"));

    ToolRegistry r = ToolRegistry.of(all);

    assertEquals(BuiltinToolIds.ALL, r.names().subList(0, 5));
    assertEquals("builtin", r.find("read_file").orElseThrow().origin().wireName());
    assertEquals("java", r.find("get-weather").orElseThrow().origin().wireName());
    assertEquals("mcp:everything", r.find("everything/echo").orElseThrow().origin().wireName());
    assertEquals("everything/get-sum", r.byExposedName("everything_get-sum").orElseThrow().name());
    assertEquals(List.of("everything/get-sum", "everything/echo"),
        r.matching("everything/*").stream().map(RegisteredTool::name).toList());
    assertEquals(List.of(), r.matching("memory/*"));
    assertTrue(r.contains("get-weather") && !r.contains("get_weather"));
  }

  @Test
  void aJavaToolNamedLikeABuiltin_stopsTheStart_namingBothOrigins() {
    List<RegisteredTool> all = new ArrayList<>(ToolRegistry.builtins());
    all.add(java("read_file", "/x/files.jar"));

    var e = assertThrows(ToolRegistryException.class, () -> ToolRegistry.of(all));

    assertEquals(List.of("duplicate tool name 'read_file': read_file (builtin, built in) and read_file (java, "
        + "/x/files.jar); rename one or remove one"), e.problems());
  }

  @Test
  void twoToolsShownToTheModelUnderOneName_stopTheStart_namingBoth() {
    var e = assertThrows(ToolRegistryException.class,
        () -> ToolRegistry.of(List.of(java("memory_read", "/x/m.jar"), mcp("memory", "read"))));

    assertEquals(List.of("tools memory_read (java, /x/m.jar) and memory/read (mcp:memory, stdio node) would both be"
        + " shown to the model as 'memory_read'; rename one or remove one"), e.problems());
  }

  @Test
  void exposedNames_areWhatEveryProviderAccepts_andStayDistinctWhenShortened() {
    assertEquals("everything_get-sum", ExposedNames.ofMcp("everything", "get-sum"));
    assertEquals("srv_a_b_c", ExposedNames.ofMcp("srv", "a.b c"));
    String longTool = "t".repeat(80);
    String a = ExposedNames.ofMcp("server", longTool + "a");
    String b = ExposedNames.ofMcp("server", longTool + "b");
    assertEquals(64, a.length());
    assertTrue(a.matches("[a-zA-Z0-9_-]{1,64}") && b.matches("[a-zA-Z0-9_-]{1,64}"));
    assertTrue(!a.equals(b), "a hash of the full name keeps shortened names apart");
  }
}
