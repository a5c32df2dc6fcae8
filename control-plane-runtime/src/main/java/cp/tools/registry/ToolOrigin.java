package cp.tools.registry;

import java.util.Objects;

/**
 * Where a tool comes from: {@code builtin}, {@code java} or {@code mcp:<server>}, as ledgers,
 * spans and {@code cpctl agents} name it.
 *
 * @param kind which kind of tool
 * @param server the MCP server's name for {@link Kind#MCP}, else null
 */
public record ToolOrigin(Kind kind, String server) {
  /** The kinds of tool. */
  public enum Kind { BUILTIN, JAVA, MCP }

  public static final ToolOrigin BUILTIN = new ToolOrigin(Kind.BUILTIN, null);
  public static final ToolOrigin JAVA = new ToolOrigin(Kind.JAVA, null);

  public ToolOrigin {
    Objects.requireNonNull(kind, "kind");
    if ((kind == Kind.MCP) != (server != null)) {
      throw new IllegalArgumentException("an MCP origin names its server, no other origin does");
    }
  }

  public static ToolOrigin mcp(String server) {
    return new ToolOrigin(Kind.MCP, Objects.requireNonNull(server, "server"));
  }

  /** {@code builtin}, {@code java} or {@code mcp:<server>}. */
  public String wireName() {
    return switch (kind) {
      case BUILTIN -> "builtin";
      case JAVA -> "java";
      case MCP -> "mcp:" + server;
    };
  }

  @Override
  public String toString() {
    return wireName();
  }
}
