package cp.tools.mcp;

import cp.model.Json;
import cp.tools.ToolErrorCodes;
import cp.tools.ToolResult;
import cp.tools.registry.ToolOutput;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Turns an MCP tool result into what the model reads: text blocks as they are (bounded like the
 * built-ins' output), images, audio and resources summarized by type and size, never pasted; a
 * result with {@code isError} becomes a {@code tool_error} the model reads.
 */
final class McpContent {
  private McpContent() {}

  static ToolResult toResult(McpSchema.CallToolResult r) {
    List<String> parts = new ArrayList<>();
    for (McpSchema.Content c : r.content() == null ? List.<McpSchema.Content>of() : r.content()) {
      parts.add(describe(c));
    }
    if (parts.isEmpty() && r.structuredContent() != null) {
      parts.add(Json.write(r.structuredContent()));
    }
    String text = ToolOutput.bounded(String.join("\n", parts));
    if (Boolean.TRUE.equals(r.isError())) {
      return ToolResult.error(ToolErrorCodes.TOOL_ERROR, text.isBlank() ? "the tool reported an error" : text);
    }
    return ToolResult.ok(text);
  }

  static String describe(McpSchema.Content c) {
    if (c instanceof McpSchema.TextContent t) {
      return t.text() == null ? "" : t.text();
    }
    if (c instanceof McpSchema.ImageContent i) {
      return "[image: " + i.mimeType() + ", " + decodedSize(i.data()) + " bytes, not shown]";
    }
    if (c instanceof McpSchema.AudioContent a) {
      return "[audio: " + a.mimeType() + ", " + decodedSize(a.data()) + " bytes, not shown]";
    }
    if (c instanceof McpSchema.EmbeddedResource e) {
      McpSchema.ResourceContents rc = e.resource();
      String size = rc instanceof McpSchema.TextResourceContents t ? (t.text() == null ? 0 : t.text().length()) + " chars"
          : rc instanceof McpSchema.BlobResourceContents b ? decodedSize(b.blob()) + " bytes" : "unknown size";
      return "[resource: " + rc.uri() + ", " + (rc.mimeType() == null ? "no type" : rc.mimeType()) + ", " + size
          + ", not shown]";
    }
    if (c instanceof McpSchema.ResourceLink l) {
      return "[resource link: " + l.uri() + (l.name() == null ? "" : " (" + l.name() + ")")
          + (l.mimeType() == null ? "" : ", " + l.mimeType()) + (l.size() == null ? "" : ", " + l.size() + " bytes") + "]";
    }
    return "[" + c.type() + " content, not shown]";
  }

  private static long decodedSize(String base64) {
    if (base64 == null) {
      return 0;
    }
    try {
      return Base64.getDecoder().decode(base64).length;
    } catch (IllegalArgumentException e) {
      return base64.length() * 3L / 4;
    }
  }
}
