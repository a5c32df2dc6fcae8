package cp.eval;

/**
 * A suite or report file that cannot be read or written: the message names the file, the key where the
 * problem is ({@code cases[2] (SES-1#3).expect.max_cost_usd}) and what is wrong with it.
 */
public final class SuiteFileException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String key;

  public SuiteFileException(String file, String key, String problem) {
    this(file, key, problem, null);
  }

  public SuiteFileException(String file, String key, String problem, Throwable cause) {
    super(file + ": " + (key == null || key.isEmpty() ? "" : key + ": ") + problem, cause);
    this.file = file;
    this.key = key == null ? "" : key;
  }

  /** The file, as given. */
  public String file() {
    return file;
  }

  /** The dotted key of the problem, empty when it is about the whole file. */
  public String key() {
    return key;
  }
}
