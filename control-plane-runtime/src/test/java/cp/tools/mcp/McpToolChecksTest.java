package cp.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.contracts.SchemaValidator;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a server lists that cannot be offered is left out with why; the rest is kept in the server's order. */
class McpToolChecksTest {
  private final McpToolChecks checks = new McpToolChecks(new SchemaValidator());

  private static McpSchema.Tool tool(String name, String schema) {
    return McpSchema.Tool.builder().name(name).inputSchema(McpJsonDefaults.getMapper(), schema).build();
  }

  @Test
  void badSchemasDuplicatesAndNamesShownAlike_areLeftOut_theFirstOfTwoIsKept() {
    McpToolList list = checks.check("fs", List.of(
        tool("read", "{\"type\":\"object\"}"),
        tool("bad", "{\"type\":\"objekt\"}"),
        tool("read", "{\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"string\"}}}"),
        tool("read.file", "{\"type\":\"object\"}"),
        tool("read file", "{\"type\":\"object\"}"),
        tool("bad", "{\"type\":\"object\"}")));

    assertEquals(List.of("read", "read.file", "bad"), list.names());
    assertEquals(List.of("bad", "read", "read file"), list.leftOut().stream().map(McpToolList.LeftOut::tool).toList());
    assertTrue(list.leftOut().get(0).problem().startsWith("its inputSchema is not a valid JSON Schema: /type"),
        list.leftOut().get(0)::problem);
    assertTrue(list.leftOut().get(1).problem().contains("listed twice"), list.leftOut().get(1)::problem);
    assertTrue(list.leftOut().get(2).problem().contains("'fs_read_file', like 'read.file'"),
        list.leftOut().get(2)::problem);
    assertEquals(McpToolList.of(list.tools()).hash(), list.hash(), "the hash is over what is offered");
  }
}
