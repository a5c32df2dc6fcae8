package cp.tools.spi;

import java.util.Objects;

/**
 * What one call returns: text the model reads, or an error the model reads.
 *
 * <p>An error is a normal outcome (bad input the schema could not express, a city that does not
 * exist, a remote service that refused): the model is told and can try something else. Write its
 * message for the model: no stack trace, no internal detail, no secret. A call that throws is
 * reported to the model as a failure of the tool with the exception's first line, so prefer
 * {@link #error} for anything the model could act on.
 */
public sealed interface ToolCallResult permits ToolCallResult.Text, ToolCallResult.Failure {

  /** The text the model reads as the tool result. */
  String text();

  /** Whether the call failed. */
  boolean isError();

  /** A successful call's output. */
  static ToolCallResult text(String text) {
    return new Text(text);
  }

  /** A failed call's message for the model. */
  static ToolCallResult error(String message) {
    return new Failure(message);
  }

  /** A successful call's output, as the model reads it. */
  record Text(String text) implements ToolCallResult {
    public Text {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public boolean isError() {
      return false;
    }
  }

  /** A failed call's message, as the model reads it. */
  record Failure(String text) implements ToolCallResult {
    public Failure {
      Objects.requireNonNull(text, "text");
      if (text.isBlank()) {
        throw new IllegalArgumentException("an error result needs a message the model can act on");
      }
    }

    @Override
    public boolean isError() {
      return true;
    }
  }
}
