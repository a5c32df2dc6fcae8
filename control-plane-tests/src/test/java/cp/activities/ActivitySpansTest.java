package cp.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import cp.model.Json;
import cp.model.ToolCallRequest;
import cp.model.ToolUse;
import cp.observability.PlaneSpans;
import cp.observability.SecretMasker;
import cp.observability.Telemetry;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 20 §3: {@code gen_ai.tool.name} only for a tool the agent declares, never for a name a model invents. */
class ActivitySpansTest {
  @Test
  void aDeclaredTool_namesItsSpan_anInventedNameMakesAPlainExecuteToolSpan() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    List<SpanData> spans;
    try (Telemetry t = Telemetry.exportingTo(exporter, null, false, new SecretMasker())) {
      for (String name : List.of("list_packages", "rm_rf_everything")) {
        ToolCallRequest r = new ToolCallRequest("WO-0a0b0c0d-0001-01", "SES-0a0b0c0d", "ADMIN",
            new ToolUse("toolu_1", name, Json.object()), List.of("list_packages", "read_file"), 1);
        ActivitySpans.tool(t, r, r.toolUse(), "builtin").end();
      }
      spans = List.copyOf(exporter.getFinishedSpanItems());
    }
    assertEquals(List.of("execute_tool list_packages", "execute_tool"), spans.stream().map(SpanData::getName).toList());
    assertEquals("list_packages", spans.get(0).getAttributes().get(PlaneSpans.TOOL_NAME));
    assertNull(spans.get(1).getAttributes().get(PlaneSpans.TOOL_NAME));
    assertEquals("execute_tool", spans.get(1).getAttributes().get(PlaneSpans.OPERATION));
  }

  /** Issue 22: the span says where the tool comes from (builtin, java, mcp:&lt;server&gt;). */
  @Test
  void aToolSpan_carriesTheToolsOrigin() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    SpanData span;
    try (Telemetry t = Telemetry.exportingTo(exporter, null, false, new SecretMasker())) {
      ToolCallRequest r = new ToolCallRequest("WO-0a0b0c0d-0001-01", "SES-0a0b0c0d", "WEATHER",
          new ToolUse("toolu_1", "everything/echo", Json.object()), List.of("everything/echo"), 1);
      ActivitySpans.tool(t, r, r.toolUse(), "mcp:everything").end();
      span = exporter.getFinishedSpanItems().get(0);
    }
    assertEquals("execute_tool everything/echo", span.getName());
    assertEquals("mcp:everything", span.getAttributes().get(PlaneSpans.TOOL_ORIGIN));
  }
}
