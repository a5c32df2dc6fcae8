package cp.workflows;

/** Durations in the words a user reads in a message: "30 min", "2 h", "90 s". Pure; safe in workflows. */
final class Durations {
  private Durations() {}

  /** {@code seconds} as whole hours, minutes or seconds, whichever divides it exactly first. */
  static String words(long seconds) {
    if (seconds >= 3600 && seconds % 3600 == 0) {
      return seconds / 3600 + " h";
    }
    if (seconds >= 60 && seconds % 60 == 0) {
      return seconds / 60 + " min";
    }
    return seconds + " s";
  }
}
