package cp.gateway.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.util.Objects;

/**
 * The offline model's reading of one utterance, shaped like PRC-CLASSIFY-001's output.
 *
 * @param speechAct greeting, reentry_greeting, farewell, question or command
 * @param ambiguity low, medium or high
 * @param intent a short label: the tool asked for, else what the act is for
 * @param needsTools whether the words ask for one of the ADMIN tools
 */
public record Classification(String speechAct, String ambiguity, String intent, boolean needsTools) {
  public Classification {
    Objects.requireNonNull(speechAct, "speechAct");
    Objects.requireNonNull(ambiguity, "ambiguity");
    Objects.requireNonNull(intent, "intent");
  }

  /** {@code {"speech_act", "ambiguity", "intent", "needs_tools"}} in that order. */
  public ObjectNode toJson() {
    return Json.object()
        .put("speech_act", speechAct)
        .put("ambiguity", ambiguity)
        .put("intent", intent)
        .put("needs_tools", needsTools);
  }
}
