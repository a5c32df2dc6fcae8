package cp.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.WoState;
import cp.model.WorkOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * HO2's verification step (Kitchener step 4): pure code over a finished synthesize work order.
 *
 * <p>It accepts when the work order completed, its output has a non-blank {@code response_text}
 * and that text fits the acceptance criteria's {@code max_response_chars}. Every failed check is
 * a reason; the reasons go back to the next attempt as {@code retry_feedback}.
 */
public final class QualityGate {
  private QualityGate() {}

  public static GateDecision verify(WorkOrder wo, int maxResponseChars) {
    List<String> reasons = new ArrayList<>();
    String text = null;
    if (wo.state() != WoState.COMPLETED) {
      reasons.add("the work order " + wo.state().wireName()
          + (wo.error() == null ? "" : " with " + wo.error().code() + ": " + wo.error().message()));
    }
    JsonNode out = wo.outputResult();
    if (wo.state() == WoState.COMPLETED) {
      if (out == null || out.isNull() || (out.isObject() && out.isEmpty())) {
        reasons.add("the output is empty");
      } else if (!out.has("response_text") || !out.get("response_text").isTextual()) {
        reasons.add("the output has no response_text string");
      } else {
        text = out.get("response_text").asText();
        if (text.isBlank()) {
          reasons.add("response_text is blank");
        } else if (maxResponseChars > 0 && text.length() > maxResponseChars) {
          reasons.add("response_text has " + text.length() + " characters; the limit is " + maxResponseChars);
        }
      }
    }
    return new GateDecision(reasons.isEmpty(), reasons, text);
  }
}
