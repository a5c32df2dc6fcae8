package cp.workflows;

import java.util.List;

/** The quality gate's verdict on a synthesize work order, with every reason it rejected. */
public record GateDecision(boolean accepted, List<String> reasons, String responseText) {
  public GateDecision {
    reasons = List.copyOf(reasons);
  }
}
