package cp.workflows;

import cp.model.DisplayText;
import cp.model.Refusal;
import cp.model.RefusedException;
import io.temporal.common.converter.EncodedValues;
import io.temporal.workflow.DynamicUpdateHandler;

/**
 * Issue 20: an Update of a name the session does not know is refused by its validator, typed and
 * non-retryable ({@code unknown_update}), naming the known ones; nothing reaches the history.
 * (Without it the SDK refused with a retryable {@code java.lang.IllegalArgumentException}, which a
 * foreign client may retry for ever.)
 */
final class UnknownUpdates implements DynamicUpdateHandler {
  /** Longest part of a name quoted back: enough to recognise a typo, never a document. */
  static final int MAX_QUOTED_NAME = 80;

  private final String known;

  UnknownUpdates(String known) {
    this.known = known;
  }

  @Override
  public void handleValidate(String updateName, EncodedValues args) {
    throw refusal(updateName);
  }

  @Override
  public Object handleExecute(String updateName, EncodedValues args) {
    throw refusal(updateName);
  }

  private RefusedException refusal(String updateName) {
    String name = updateName == null ? ""
        : updateName.length() > MAX_QUOTED_NAME ? updateName.substring(0, MAX_QUOTED_NAME) + "…" : updateName;
    return new RefusedException(Refusal.UNKNOWN_UPDATE, "unknown update '" + DisplayText.escape(name) + "' (known: "
        + known + ")", Refusal.of(Refusal.Code.UNKNOWN_UPDATE));
  }
}
