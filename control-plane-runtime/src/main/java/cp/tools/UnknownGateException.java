package cp.tools;

import java.util.List;

/** A gate id that {@link IntegrityGates} does not know; the message lists the known ones. */
public final class UnknownGateException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnknownGateException(String gateId, List<String> known) {
    super("gate '" + BoundedText.quote(gateId, ToolDispatcher.MAX_QUOTED_CHARS) + "' is not known (known: "
        + String.join(", ", known) + "); use one of those, or 'all' to run every gate");
  }
}
