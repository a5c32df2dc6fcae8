package cp.worker;

/** The positive whole numbers of {@link PlaneConfig} and {@link WorkerSettings}, parsed one way. */
final class EnvNumbers {
  private EnvNumbers() {}

  /**
   * {@code value} (not blank) of the variable {@code var} as a number from 1 to {@code max}.
   *
   * @throws ConfigException naming {@code var}: {@code var='value' is not <what>}
   */
  static long positive(String var, String value, long max, String what) {
    try {
      long n = Long.parseLong(value.trim());
      if (n > 0 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new ConfigException(var, var + "='" + value + "' is not " + what);
  }
}
