package cp.client;

import java.time.Duration;

/** The client's checks of what a program hands it: a clear IllegalArgumentException naming the argument. */
final class ClientArgs {
  private ClientArgs() {}

  static String requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return value;
  }

  static void requirePositive(Duration value, String name) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be a positive duration; got " + value);
    }
  }
}
