package cp.tools;

/**
 * The error codes of tool results that are not {@code ok}, besides the {@link PathRefusal} codes.
 * The model and the ledger read them; they are stable.
 */
public final class ToolErrorCodes {
  /** The agent configuration or the work order does not offer the tool. */
  public static final String TOOL_NOT_ALLOWED = "tool_not_allowed";
  /** The agent configures a tool that has no implementation in this worker. */
  public static final String TOOL_UNKNOWN = "tool_unknown";
  /** The arguments do not match the tool's parameter schema. */
  public static final String INVALID_ARGUMENTS = "invalid_arguments";
  /** The tool threw; the message says what failed, without a stack trace. */
  public static final String TOOL_FAILURE = "tool_failure";
  /** The calling agent class is not in the catalog. */
  public static final String AGENT_UNKNOWN = "agent_unknown";
  /** The file does not exist. */
  public static final String NOT_FOUND = "not_found";
  /** The path names a directory or another non-regular file. */
  public static final String NOT_A_FILE = "not_a_file";
  /** The file holds binary data (NUL bytes near its start). */
  public static final String NOT_TEXT = "not_text";
  /**
   * The agent may read only its own session's ledger entries ({@code permissions.ledger_scope:
   * session}) and asked for another session's, or the call belongs to no session.
   */
  public static final String OTHER_SESSION = "session_not_allowed";
  /** gate_check was asked for a gate id that does not exist. */
  public static final String UNKNOWN_GATE = "unknown_gate";

  /** write_file's content is over its limit ({@code CP_WRITE_FILE_MAX_BYTES}). */
  public static final String TOO_LARGE = "content_too_large";
  /** write_file in mode create found a file with other content. */
  public static final String FILE_EXISTS = "file_exists";
  /** A person denied the call (approval policy {@code required}); the tool did not run. */
  public static final String APPROVAL_DENIED = "approval_denied";
  /** Nobody decided the call within its approval timeout and the policy denies on timeout; the tool did not run. */
  public static final String APPROVAL_TIMED_OUT = "approval_timed_out";

  /** Whether {@code errorCode} says the call did not run because it was not approved (denied or timed out). */
  public static boolean notApproved(String errorCode) {
    return APPROVAL_DENIED.equals(errorCode) || APPROVAL_TIMED_OUT.equals(errorCode);
  }

  /** A Java or MCP tool reported an error (the tool's own message, or an MCP result with isError). */
  public static final String TOOL_ERROR = cp.model.FailureCode.TOOL_ERROR.wire();
  /** A Java or MCP tool did not answer within its timeout; the call was abandoned. */
  public static final String TOOL_TIMEOUT = "tool_timeout";
  /** The MCP server of the tool cannot be reached or died; the model is told, the operator gets one log line. */
  public static final String SERVER_UNAVAILABLE = "server_unavailable";

  private ToolErrorCodes() {}
}
