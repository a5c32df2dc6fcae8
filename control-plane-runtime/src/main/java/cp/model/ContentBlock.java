package cp.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One block of a provider-neutral message: {@code text}, {@code tool_use} or {@code tool_result}.
 *
 * <p>One record with nullable fields rather than a class hierarchy keeps the JSON form flat and
 * identical to the Anthropic block shape, which is also how EXCHANGE records store responses.
 * The {@code isX()} helpers are {@link JsonIgnore}d: Jackson would otherwise read
 * {@code isText()} as the boolean property {@code text} and write {@code "text": true} in place
 * of the block's text.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContentBlock(
    String type, String text, String id, String name, JsonNode input, String toolUseId, String content, Boolean isError) {

  public static final String TEXT = "text";
  public static final String TOOL_USE = "tool_use";
  public static final String TOOL_RESULT = "tool_result";

  public ContentBlock {
    Objects.requireNonNull(type, "type");
    switch (type) {
      case TEXT -> Objects.requireNonNull(text, "text block needs text");
      case TOOL_USE -> {
        Objects.requireNonNull(id, "tool_use block needs id");
        Objects.requireNonNull(name, "tool_use block needs name");
        input = input == null ? Json.object() : input.deepCopy();
      }
      case TOOL_RESULT -> {
        Objects.requireNonNull(toolUseId, "tool_result block needs tool_use_id");
        content = content == null ? "" : content;
      }
      default -> throw new IllegalArgumentException("unknown content block type '" + type + "'");
    }
  }

  /** The concatenated text of the text blocks in {@code blocks} (tool blocks omitted). */
  public static String joinText(java.util.List<ContentBlock> blocks) {
    StringBuilder sb = new StringBuilder();
    for (ContentBlock b : blocks) {
      if (b.isText()) {
        sb.append(b.text());
      }
    }
    return sb.toString();
  }

  public static ContentBlock text(String text) {
    return new ContentBlock(TEXT, text, null, null, null, null, null, null);
  }

  public static ContentBlock toolUse(String id, String name, JsonNode input) {
    return new ContentBlock(TOOL_USE, null, id, name, input, null, null, null);
  }

  public static ContentBlock toolResult(String toolUseId, String content, boolean isError) {
    return new ContentBlock(TOOL_RESULT, null, null, null, null, toolUseId, content, isError ? Boolean.TRUE : null);
  }

  @JsonIgnore
  public boolean isText() {
    return TEXT.equals(type);
  }

  @JsonIgnore
  public boolean isToolUse() {
    return TOOL_USE.equals(type);
  }

  @JsonIgnore
  public boolean isToolResult() {
    return TOOL_RESULT.equals(type);
  }

  @JsonIgnore
  public boolean error() {
    return Boolean.TRUE.equals(isError);
  }
}
