package cp.activities;

/**
 * The reply's text out of a reply streamed in pieces (issue 24). For a contract that answers in
 * plain text it is the text itself; for one that answers in JSON it is the value of the top-level
 * string field {@value #FIELD}, decoded as it arrives (escapes, including {@code \\uXXXX} split
 * across pieces), never the raw JSON. Text before the object (a code fence) and every other field
 * is skipped; the field's value ends at its closing quote. Not thread-safe: one call, one extractor.
 */
final class ReplyTextExtractor {
  /** The field of a JSON answer that holds the user-facing reply (the synthesize contract's output). */
  static final String FIELD = "response_text";

  private final boolean json;
  private final StringBuilder out = new StringBuilder();
  private int depth;
  private boolean inString;
  private boolean escape;
  private final StringBuilder unicode = new StringBuilder();
  private boolean inUnicode;
  private final StringBuilder key = new StringBuilder();
  private String lastKey;
  private boolean afterColon;
  private boolean inValue;
  private boolean finished;
  private char pendingHigh;

  ReplyTextExtractor(boolean json) {
    this.json = json;
  }

  /** Reads the next piece of the raw reply; returns the reply text it adds (maybe empty). */
  String feed(String raw) {
    if (!json) {
      return raw;
    }
    int before = out.length();
    for (int i = 0; i < raw.length() && !finished; i++) {
      read(raw.charAt(i));
    }
    return out.substring(before);
  }

  private void read(char c) {
    if (inString) {
      readString(c);
      return;
    }
    switch (c) {
      case '{', '[' -> {
        depth++;
        afterColon = false;
      }
      case '}', ']' -> depth--;
      case ':' -> afterColon = depth == 1 && lastKey != null;
      case ',' -> {
        afterColon = false;
        lastKey = null;
      }
      case '"' -> {
        inString = true;
        inValue = depth == 1 && afterColon && FIELD.equals(lastKey);
        key.setLength(0);
      }
      default -> { }
    }
  }

  private void readString(char c) {
    if (inUnicode) {
      unicode.append(c);
      if (unicode.length() == 4) {
        inUnicode = false;
        char decoded;
        try {
          decoded = (char) Integer.parseInt(unicode.toString(), 16);
        } catch (NumberFormatException e) {
          decoded = '\uFFFD';
        }
        emit(decoded);
      }
      return;
    }
    if (escape) {
      escape = false;
      switch (c) {
        case 'n' -> emit('\n');
        case 't' -> emit('\t');
        case 'r' -> emit('\r');
        case 'b' -> emit('\b');
        case 'f' -> emit('\f');
        case 'u' -> {
          inUnicode = true;
          unicode.setLength(0);
        }
        default -> emit(c); // \" \\ \/
      }
      return;
    }
    if (c == '\\') {
      escape = true;
    } else if (c == '"') {
      inString = false;
      if (inValue) {
        finished = true;
      } else if (depth == 1 && !afterColon) {
        lastKey = key.toString();
      }
      afterColon = false;
    } else {
      emit(c);
    }
  }

  /** A decoded character of the current string: reply text when it is the field's value, else a key's. */
  private void emit(char c) {
    if (!inValue) {
      key.append(c);
      return;
    }
    if (Character.isHighSurrogate(c)) {
      pendingHigh = c; // held until its low half, so no piece ends in half a pair
      return;
    }
    if (pendingHigh != 0) {
      out.append(pendingHigh);
      pendingHigh = 0;
    }
    out.append(c);
  }
}
