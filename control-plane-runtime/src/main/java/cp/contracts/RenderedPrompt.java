package cp.contracts;

import java.util.Objects;

/** A prompt pack filled in for one work order: the system prompt and the user message. */
public record RenderedPrompt(String system, String user) {
  public RenderedPrompt {
    Objects.requireNonNull(system, "system");
    Objects.requireNonNull(user, "user");
  }
}
