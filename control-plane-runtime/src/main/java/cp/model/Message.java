package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/** A conversation message: role {@code user} or {@code assistant} and its content blocks. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Message(String role, List<ContentBlock> content) {
  public static final String USER = "user";
  public static final String ASSISTANT = "assistant";

  public Message {
    Objects.requireNonNull(role, "role");
    if (!USER.equals(role) && !ASSISTANT.equals(role)) {
      throw new IllegalArgumentException("message role must be user or assistant, was '" + role + "'");
    }
    content = List.copyOf(Objects.requireNonNull(content, "content"));
  }

  public static Message user(String text) {
    return new Message(USER, List.of(ContentBlock.text(text)));
  }

  public static Message assistant(String text) {
    return new Message(ASSISTANT, List.of(ContentBlock.text(text)));
  }

  /** The concatenated text blocks (tool blocks omitted). */
  public String text() {
    return ContentBlock.joinText(content);
  }
}
