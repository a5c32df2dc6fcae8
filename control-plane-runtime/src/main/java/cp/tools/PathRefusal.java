package cp.tools;

/** Why {@link PathPolicy} refused a path: each rule with the stable code a tool result carries. */
public enum PathRefusal {
  /** The path is empty or blank. */
  EMPTY("path_empty"),
  /** The path holds a NUL character (it would be cut short by the operating system). */
  NUL_BYTE("path_nul_byte"),
  /** The path is absolute; only paths relative to the plane root are accepted. */
  ABSOLUTE("path_absolute"),
  /** The path has a {@code ..} segment. */
  PARENT_SEGMENT("path_parent_segment"),
  /** The path, normalized or resolved, lies outside the plane root. */
  OUTSIDE_ROOT("path_outside_root"),
  /** A symbolic link on the way points outside the plane root. */
  SYMLINK_ESCAPE("path_symlink_escape"),
  /** A symbolic link on the way points at nothing, so where it leads cannot be checked. */
  DANGLING_SYMLINK("path_symlink_dangling"),
  /** The file has more than one hard link: another name for it may lie outside the plane root. */
  HARD_LINK("path_hard_link"),
  /** The name looks like a secret ({@link SecretFileNames}: keys, certificates, env files, credentials). */
  SECRET("path_secret"),
  /** read_file was asked for a ledger or a file beside one; ledgers are read with query_ledger only. */
  LEDGER_FILE("path_ledger_file"),
  /**
   * A part of the path was replaced (by a symbolic link, say) between the check and the open; the
   * open follows no link, so it refused instead of reading whatever the new link leads to.
   */
  CHANGED("path_changed"),
  /** The platform cannot open a file without following links, so nothing is read. */
  NO_SAFE_OPEN("path_no_safe_open"),
  /** A forbidden glob of the agent matches; forbidden wins over read and write globs. */
  FORBIDDEN("path_forbidden"),
  /** No read (or write) glob of the agent matches. */
  NOT_PERMITTED("path_not_permitted"),
  /** The plane root does not exist, or the path could not be resolved (an I/O error). */
  UNRESOLVABLE("path_unresolvable");

  private final String code;

  PathRefusal(String code) {
    this.code = code;
  }

  /** The error code of the refused tool result, e.g. {@code path_forbidden}. */
  public String code() {
    return code;
  }
}
