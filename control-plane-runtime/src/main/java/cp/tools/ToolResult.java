package cp.tools;

import java.util.Objects;

/**
 * What a tool call produced.
 *
 * @param status {@code ok}, {@code error} (the tool ran and failed) or {@code refused} (not allowed,
 *     outside the permitted paths, invalid arguments)
 * @param content what the model reads as the tool_result (the output, or the error explained)
 * @param errorCode a stable code when not ok (e.g. tool_not_allowed, path_forbidden, invalid_arguments)
 */
public record ToolResult(String status, String content, String errorCode) {
  public static final String OK = "ok";
  public static final String ERROR = "error";
  public static final String REFUSED = "refused";

  public ToolResult {
    Objects.requireNonNull(status, "status");
    content = content == null ? "" : content;
  }

  public static ToolResult ok(String content) {
    return new ToolResult(OK, content, null);
  }

  public static ToolResult error(String code, String message) {
    return new ToolResult(ERROR, message, code);
  }

  public static ToolResult refused(String code, String message) {
    return new ToolResult(REFUSED, message, code);
  }

  public boolean ok() {
    return OK.equals(status);
  }
}
