package cp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code gate_check {gate?}}: runs the {@link IntegrityGates} ({@code all}, the default, or one
 * gate id) and reports one line per gate, {@code PASS|FAIL <gate-id>: <detail>}. Failing gates
 * are a successful tool call; only an unknown gate id is an error.
 */
public final class GateCheckTool implements Tool {
  public static final String ID = "gate_check";
  /** The argument that runs every gate. */
  public static final String ALL = "all";

  private final IntegrityGates gates;

  public GateCheckTool(IntegrityGates gates) {
    this.gates = Objects.requireNonNull(gates, "gates");
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ToolResult run(ToolContext ctx, JsonNode args) {
    String gate = args.path("gate").asText(ALL).strip();
    List<GateResult> results;
    if (gate.isEmpty() || gate.equalsIgnoreCase(ALL)) {
      results = gates.runAll();
    } else {
      try {
        results = List.of(gates.run(gate));
      } catch (UnknownGateException e) {
        return ToolResult.error(ToolErrorCodes.UNKNOWN_GATE, e.getMessage());
      }
    }
    return ToolResult.ok(results.stream().map(GateResult::line).collect(Collectors.joining("\n")));
  }
}
