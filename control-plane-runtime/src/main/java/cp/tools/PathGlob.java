package cp.tools;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One permission glob over a path relative to the plane root, with {@code /} separators.
 *
 * <p>{@code *} matches within one path segment, {@code **} crosses directories, {@code ?} is
 * one character of a segment. {@code **}{@code /} at the start or in the middle also matches no
 * directory at all ({@code **}{@code /.env} matches {@code .env}), and a trailing
 * {@code /**} also matches the directory itself ({@code HOT/**} matches {@code HOT}). Every
 * other character is literal (no braces or character classes), and matching is case-sensitive.
 */
public record PathGlob(String pattern, Pattern regex) {
  public PathGlob {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(regex, "regex");
  }

  /** Compiles a glob. */
  public static PathGlob of(String glob) {
    Objects.requireNonNull(glob, "glob");
    return new PathGlob(glob, Pattern.compile(toRegex(glob)));
  }

  /** Whether the relative path (with {@code /} separators, no leading {@code /}) matches. */
  public boolean matches(String relativePath) {
    return regex.matcher(relativePath).matches();
  }

  static String toRegex(String glob) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    int n = glob.length();
    while (i < n) {
      char c = glob.charAt(i);
      if (c == '*' && i + 1 < n && glob.charAt(i + 1) == '*') {
        boolean atSegmentStart = i == 0 || glob.charAt(i - 1) == '/';
        boolean slashAfter = i + 2 < n && glob.charAt(i + 2) == '/';
        boolean atEnd = i + 2 == n;
        if (atSegmentStart && slashAfter) {
          re.append("(?:.*/)?");
          i += 3;
        } else if (atSegmentStart && atEnd && i > 0) {
          // "dir/**": the trailing slash already went into the regex; make it optional with the rest.
          re.setLength(re.length() - 1);
          re.append("(?:/.*)?");
          i += 2;
        } else {
          re.append(".*");
          i += 2;
        }
      } else if (c == '*') {
        re.append("[^/]*");
        i++;
      } else if (c == '?') {
        re.append("[^/]");
        i++;
      } else {
        appendLiteral(re, c);
        i++;
      }
    }
    return re.toString();
  }

  /** Letters, digits, {@code /} and non-ASCII as they are; any other ASCII character escaped. */
  private static void appendLiteral(StringBuilder re, char c) {
    if (Character.isLetterOrDigit(c) || c == '/' || c > 127) {
      re.append(c);
    } else {
      re.append('\\').append(c);
    }
  }

  @Override
  public String toString() {
    return pattern;
  }
}
