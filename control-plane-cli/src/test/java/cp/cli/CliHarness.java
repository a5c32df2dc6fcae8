package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code cpctl} in-process through {@link Cpctl#run} with an explicit environment and
 * captured streams, and holds the assertions every command test shares.
 */
final class CliHarness {
  /** Every test's starting environment: its own plane root and the offline provider, nothing inherited. */
  static Map<String, String> env(Path home) {
    Map<String, String> env = new HashMap<>();
    env.put("CP_HOME", home.toString());
    env.put("CP_PROVIDER", "offline");
    return env;
  }

  /** Failure messages show this much of each stream. */
  static final int SHOWN_CHARS = 4000;

  /** What one run printed and returned. */
  record Run(int code, String out, String err) {
    /** The non-blank lines of stderr. */
    long errLines() {
      return err.lines().filter(l -> !l.isBlank()).count();
    }

    String describe() {
      return "exit " + code + "\n--- stdout:\n" + cut(out) + "\n--- stderr:\n" + cut(err);
    }

    private static String cut(String s) {
      return s.length() <= SHOWN_CHARS ? s : s.substring(0, SHOWN_CHARS) + "\n[... " + (s.length() - SHOWN_CHARS)
          + " more characters]";
    }
  }

  private CliHarness() {}

  static Run run(Map<String, String> env, String... args) {
    return runWithInput(env, new byte[0], args);
  }

  /** Runs with {@code stdin} as standard input (piped, not a terminal). */
  static Run runWithInput(Map<String, String> env, String stdin, String... args) {
    return runWithInput(env, stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  static Run runWithInput(Map<String, String> env, byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Cpctl.run(args, env, new ByteArrayInputStream(stdin), o, e);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Exit code as expected, and stderr is one line without a stack trace. */
  static void assertOneLineError(Run r, int expectedCode) {
    assertEquals(expectedCode, r.code(), r::describe);
    assertEquals(1, r.errLines(), () -> "expected exactly one line on stderr\n" + r.describe());
    assertNoStackTrace(r);
  }

  /** Neither stream shows a Java stack trace or exception class name. */
  static void assertNoStackTrace(Run r) {
    for (String s : new String[] {r.out(), r.err()}) {
      assertFalse(s.contains("\tat ") || s.contains("at cp.") || s.contains("at io.") || s.contains("at java."),
          () -> "stack trace printed\n" + r.describe());
      assertFalse(s.contains("Exception"), () -> "exception name printed\n" + r.describe());
    }
  }

  /** A loopback port nothing listens on (bound once, then released). */
  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static final Pattern SESSION_ENDED = Pattern.compile("Session (SES-[0-9a-f]{8}) ended");

  /** The session id from chat's closing line. */
  static String endedSession(Run r) {
    Matcher m = SESSION_ENDED.matcher(r.out());
    if (!m.find()) {
      throw new AssertionError("no 'Session … ended' line\n" + r.describe());
    }
    return m.group(1);
  }

  /** A scripted chat of two turns (a greeting and a tool question) that ends with exit. */
  static final String TWO_TURNS = "hello\nwhat packages are installed?\nexit\n";

  /** Runs the two-turn chat under {@code env} and returns its session id. */
  static String chat(Map<String, String> env) {
    Run r = runWithInput(env, TWO_TURNS, "chat");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    return endedSession(r);
  }
}
