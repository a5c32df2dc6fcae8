package cp.ledger;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The PostgreSQL database that holds the ledgers when {@code CP_LEDGER_URL} is set: a
 * {@code jdbc:postgresql://host:port/database} URL, with the user and password from
 * {@code CP_LEDGER_USER} / {@code CP_LEDGER_PASSWORD} or the URL's own {@code user} and
 * {@code password} parameters. The password never appears in {@link #toString()},
 * {@link #redactedUrl()} or any message built from them.
 */
public record LedgerDatabase(String url, String user, String password, LedgerMigration migration) {
  public static final String URL_VARIABLE = "CP_LEDGER_URL";
  public static final String USER_VARIABLE = "CP_LEDGER_USER";
  public static final String PASSWORD_VARIABLE = "CP_LEDGER_PASSWORD";
  private static final String PREFIX = "jdbc:postgresql://";
  private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)([?&]password=)[^&]*");

  public LedgerDatabase {
    migration = migration == null ? LedgerMigration.AUTO : migration;
    if (url == null || !url.startsWith(PREFIX) || url.length() == PREFIX.length()) {
      throw new IllegalArgumentException(URL_VARIABLE + "='" + (url == null ? "" : redact(url))
          + "' is not a PostgreSQL JDBC URL (expected jdbc:postgresql://host:port/database)");
    }
  }

  public LedgerDatabase(String url, String user, String password) {
    this(url, user, password, LedgerMigration.AUTO);
  }

  /** The same database opened with another {@code CP_LEDGER_MIGRATE} mode. */
  public LedgerDatabase withMigration(LedgerMigration m) {
    return new LedgerDatabase(url, user, password, m);
  }

  /** The database CP_LEDGER_URL names, or empty when it is unset or blank (JSONL under CP_HOME). */
  public static Optional<LedgerDatabase> fromEnv(Map<String, String> env) {
    String url = env.get(URL_VARIABLE);
    if (url == null || url.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new LedgerDatabase(url.trim(), blankToNull(env.get(USER_VARIABLE)),
        blankToNull(env.get(PASSWORD_VARIABLE)), LedgerMigration.fromEnv(env)));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  /** The URL without any password (a {@code password=} parameter is masked). */
  public String redactedUrl() {
    return redact(url);
  }

  /** {@code url} with any {@code password=} parameter masked, for messages. */
  public static String redactUrl(String url) {
    return redact(url);
  }

  static String redact(String url) {
    return PASSWORD_PARAM.matcher(url).replaceAll("$1***");
  }

  @Override
  public String toString() {
    return "LedgerDatabase(" + redactedUrl() + (user == null ? "" : ", user " + user)
        + (password == null ? "" : ", password ***") + ", " + LedgerMigration.VARIABLE + " "
        + migration.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }
}
