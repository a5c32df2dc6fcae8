package cp.gateway.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** A tool the user's words ask for, with the arguments the offline model would pass. */
public record ToolCall(String name, ObjectNode arguments) {
  public ToolCall {
    Objects.requireNonNull(name, "name");
    arguments = Objects.requireNonNull(arguments, "arguments").deepCopy();
  }
}
